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
  {
    // A take used to be BEGIN, the upsert, a round trip to Node to judge it, and COMMIT with its WAL flush:
    // a hot bucket (a popular share link, one address) was locked for all of that, and under load every
    // visitor of the link queued behind the busiest event loop (the upsert averaged 57 ms in the chat
    // bench's 200 visitors, nearly all of it waiting for the row). Now the judgement is made in the
    // statement (limit_buckets_take), and the tables are unlogged: a transaction that writes only unlogged
    // tables commits without waiting for a WAL flush. What that costs: after a crash of the database (on
    // the embedded default, PGlite, a kill of the Kesher process that holds it; a clean stop keeps them)
    // the limits' tables come back empty, so every bucket is full and every window starts again, and a
    // standby promoted in a failover has them empty too. They are allowances of a minute or an hour,
    // never money or data: the monthly quota (quota_holds) stays logged.
    id: '003-limits-unlogged-and-one-statement-take',
    sql: `ALTER TABLE limit_buckets SET UNLOGGED;
  ALTER TABLE limit_counters SET UNLOGGED;
  CREATE OR REPLACE FUNCTION limit_buckets_take(at_ms float8, keys text[], steps float8[], windows float8[])
  RETURNS float8 LANGUAGE plpgsql AS $fn$
  DECLARE
    wait float8 := 0;
  BEGIN
    -- Upserts in the order given (the caller sorts by key, so two takes never lock in opposite orders).
    WITH moved AS (
      INSERT INTO limit_buckets AS b (key, tat_ms)
      SELECT d.key, at_ms + d.step FROM unnest(keys, steps) WITH ORDINALITY AS d(key, step, n) ORDER BY d.n
      ON CONFLICT (key) DO UPDATE SET tat_ms = GREATEST(b.tat_ms, at_ms) + EXCLUDED.tat_ms - at_ms
      RETURNING b.key, b.tat_ms
    )
    SELECT coalesce(max(GREATEST(0, ceil(m.tat_ms - at_ms - w.window_ms - 1e-6))), 0) INTO wait
    FROM moved m JOIN unnest(keys, windows) AS w(key, window_ms) ON w.key = m.key;
    IF wait > 0 THEN
      -- Over in one bucket: undo every bucket's draw (the block's subtransaction rolls back), keep the wait.
      RAISE EXCEPTION USING ERRCODE = 'KL001';
    END IF;
    RETURN 0;
  EXCEPTION WHEN SQLSTATE 'KL001' THEN
    RETURN wait;
  END
  $fn$`,
  },
];
