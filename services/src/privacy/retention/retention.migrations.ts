import type { Migration } from '../../platform/sql/migrations.js';

/**
 * The retention run's own bookkeeping: subjects it has erased (so a read model that blanks an erased
 * conversation instead of dropping it is not erased again on every run) and the inactivity warnings it
 * mailed (an account is erased only a notice period after its warning, and only if still inactive).
 */
export const retentionMigrations: readonly Migration[] = [
  {
    id: '001-retention',
    sql: `CREATE TABLE IF NOT EXISTS privacy_retention_erased (
    subject text PRIMARY KEY,
    owner_id text NOT NULL,
    erased_at timestamptz NOT NULL
  );
  CREATE TABLE IF NOT EXISTS privacy_inactivity_notices (
    account_id text PRIMARY KEY,
    warned_at timestamptz NOT NULL
  )`,
  },
];
