import type { Migration } from '../platform/sql/migrations.js';

/** Identity's own table: ids of tokens signed out before they expire (accounts are a read model). */
export const identityMigrations: readonly Migration[] = [
  {
    id: '001-revoked-tokens',
    sql: `CREATE TABLE IF NOT EXISTS revoked_tokens (
    token_id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
  )`,
  },
];
