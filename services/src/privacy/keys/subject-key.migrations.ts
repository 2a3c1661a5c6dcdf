import type { Migration } from '../../platform/sql/migrations.js';

/**
 * One row per data subject: its AES-256 key, sealed with the server's key (never in the events). Erasing
 * a subject nulls `sealed_key` and sets `erased_at`: the row stays as a tombstone, so a late event about
 * an erased subject is not given a fresh key (it is stored already shredded). `owner_id` is the account a
 * thread or a channel contact belongs to: erasing the account shreds those too.
 */
export const subjectKeyMigrations: readonly Migration[] = [
  {
    id: '001-subject-keys',
    sql: `CREATE TABLE IF NOT EXISTS privacy_subject_keys (
  key_id text PRIMARY KEY,
  owner_id text,
  sealed_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  erased_at timestamptz
);
CREATE INDEX IF NOT EXISTS privacy_subject_keys_owner ON privacy_subject_keys (owner_id) WHERE owner_id IS NOT NULL`,
  },
];
