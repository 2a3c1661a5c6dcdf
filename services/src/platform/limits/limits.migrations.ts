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
  {
    // The monthly message quota's places held by runs the usage read model has not applied yet
    // (plans/message-quota.ts): by the position of each run's request in the log.
    id: '002-quota-holds',
    sql: `CREATE TABLE IF NOT EXISTS quota_holds (
    owner_id text NOT NULL,
    commit_position numeric(20) NOT NULL,
    prepare_position bigint NOT NULL,
    PRIMARY KEY (owner_id, commit_position, prepare_position)
  )`,
  },
];
