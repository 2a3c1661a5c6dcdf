import type { Migration } from '../../platform/sql/migrations.js';

/** The owner's security log (security-log.ts): entries by owner and time, purged after 12 months. */
export const securityLogMigrations: readonly Migration[] = [
  {
    id: '001-security-log',
    sql: `CREATE TABLE IF NOT EXISTS privacy_security_log (
    id text PRIMARY KEY,
    owner_id text NOT NULL,
    kind text NOT NULL,
    actor text NOT NULL,
    detail jsonb NOT NULL DEFAULT '{}',
    at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS privacy_security_log_owner ON privacy_security_log (owner_id, at DESC);
  CREATE INDEX IF NOT EXISTS privacy_security_log_at ON privacy_security_log (at)`,
  },
];
