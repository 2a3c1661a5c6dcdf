import type { Migration } from '../sql/migrations.js';

/**
 * The shared limits' tables (limit-counters.ts, limit-buckets.ts): kept in Postgres so that every API and
 * worker process draws on one allowance. Times are milliseconds of the limiter's clock (tests move it;
 * the database's does not). Keys holding addresses, e-mails or tokens are hashed by their callers.
 */
export const limitsMigrations: readonly Migration[] = [
  {
    id: '001-limit-counters-and-buckets',
    sql: `CREATE TABLE IF NOT EXISTS limit_counters (
    key text PRIMARY KEY,
    count integer NOT NULL,
    window_start_ms double precision NOT NULL,
    expires_at_ms double precision NOT NULL
  );
  CREATE INDEX IF NOT EXISTS limit_counters_expiry ON limit_counters (expires_at_ms);
  CREATE TABLE IF NOT EXISTS limit_buckets (
    key text PRIMARY KEY,
    tat_ms double precision NOT NULL
  );
  CREATE INDEX IF NOT EXISTS limit_buckets_expiry ON limit_buckets (tat_ms)`,
  },
];
