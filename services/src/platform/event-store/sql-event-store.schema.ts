import type { Migration } from '../sql/migrations.js';

/**
 * The gap-free event log (DESIGN §4, after Emmett): every row records the id of the transaction that
 * wrote it, and readers only take rows whose transaction is older than the oldest one still running that
 * could append here (read-horizon.ts; an append is its transaction's first write, migration 002), ordered
 * by (transaction_id, global_position). A late commit with a lower sequence number therefore can never be
 * skipped by a reader that already moved on.
 *
 * Appends go through one plpgsql function so a write is a single round trip and a single short
 * transaction: check the expected revision under a row lock, bump the stream, insert the events.
 * Concurrent appends are grouped into one call and one commit (see append-batcher.ts).
 *
 * Readers in other processes are woken by a NOTIFY sent after the commit, not inside the append:
 * a notifying transaction holds a database-wide lock through its commit, which would serialise every
 * append's WAL flush and defeat group commit.
 */
export const EVENTS_CHANNEL = 'kesher_events';

/** The event store's migration list (applied by the composition roots with the other modules'). */
export const eventStoreMigrations: readonly Migration[] = [
  {
    id: '001-events',
    sql: /* sql */ `
CREATE SEQUENCE IF NOT EXISTS events_global_position_seq;

CREATE TABLE IF NOT EXISTS streams (
  stream_id text PRIMARY KEY,
  version bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);

CREATE TABLE IF NOT EXISTS events (
  global_position bigint NOT NULL DEFAULT nextval('events_global_position_seq') UNIQUE,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_position bigint NOT NULL,
  event_id uuid NOT NULL UNIQUE,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_id, stream_position)
);

CREATE INDEX IF NOT EXISTS events_transaction_order ON events (transaction_id, global_position);

-- Appends several independent appends (each: a stream, an expected revision, some events) in one
-- transaction: the adapter groups concurrent callers so they share one commit (group commit). Each
-- append gets its own outcome row; a conflict or a deleted stream fails that append only.
-- Callers pass appends sorted by stream id so concurrent batches lock streams in the same order.
CREATE OR REPLACE FUNCTION kesher_append_batch(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (idx int, status text, revision bigint, tx text, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  i int;
  first_event int := 0;
  n int;
  current_version bigint;
  is_deleted boolean;
  new_version bigint;
  claimed int;
BEGIN
  FOR i IN 1 .. cardinality(p_streams) LOOP
    n := p_counts[i];
    current_version := NULL;
    is_deleted := false;
    idx := i; tx := NULL; last_position := NULL;
    IF p_expected[i] = 'no_stream' THEN
      -- The common first append: claim the stream row directly. If it exists (or a racing first
      -- append holds it), the insert claims nothing and the append conflicts — or the stream is deleted.
      INSERT INTO streams (stream_id, version) VALUES (p_streams[i], n - 1) ON CONFLICT (stream_id) DO NOTHING;
      GET DIAGNOSTICS claimed = ROW_COUNT;
      IF claimed = 0 THEN
        SELECT s.version, s.deleted INTO current_version, is_deleted FROM streams s WHERE s.stream_id = p_streams[i];
        status := CASE WHEN is_deleted THEN 'deleted' ELSE 'conflict' END;
        revision := current_version;
        RETURN NEXT;
        first_event := first_event + n;
        CONTINUE;
      END IF;
    ELSE
      SELECT s.version, s.deleted INTO current_version, is_deleted FROM streams s WHERE s.stream_id = p_streams[i] FOR UPDATE;
      revision := current_version;
      IF is_deleted OR (p_expected[i] = 'stream_exists' AND current_version IS NULL)
         OR (p_expected[i] NOT IN ('any', 'stream_exists') AND current_version IS DISTINCT FROM p_expected[i]::bigint) THEN
        status := CASE WHEN is_deleted THEN 'deleted' ELSE 'conflict' END;
        RETURN NEXT;
        first_event := first_event + n;
        CONTINUE;
      END IF;
      IF current_version IS NULL THEN
        INSERT INTO streams (stream_id, version) VALUES (p_streams[i], n - 1) ON CONFLICT (stream_id) DO NOTHING;
        GET DIAGNOSTICS claimed = ROW_COUNT;
        IF claimed = 0 THEN
          status := 'conflict';
          RETURN NEXT;
          first_event := first_event + n;
          CONTINUE;
        END IF;
      ELSE
        UPDATE streams SET version = current_version + n WHERE stream_id = p_streams[i];
      END IF;
    END IF;
    new_version := coalesce(current_version, -1) + n;
    IF n = 1 THEN
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
      VALUES (p_streams[i], new_version, p_ids[first_event + 1], p_types[first_event + 1], p_data[first_event + 1], p_metadata[first_event + 1]);
    ELSE
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
      SELECT p_streams[i], coalesce(current_version, -1) + 1 + k,
             p_ids[first_event + 1 + k], p_types[first_event + 1 + k], p_data[first_event + 1 + k], p_metadata[first_event + 1 + k]
      FROM generate_series(0, n - 1) AS k ORDER BY k;
    END IF;
    status := 'ok'; revision := new_version;
    tx := pg_current_xact_id()::text;
    last_position := currval('events_global_position_seq');
    RETURN NEXT;
    first_event := first_event + n;
  END LOOP;
END
$fn$;
`,
  },
  {
    // The read horizon (read-horizon.ts) lets readers pass a running transaction of this database that
    // holds no lock on `streams` or `events` (a projector writing a read model): sound only if every
    // append locks `streams` before its transaction takes an id. The function's first write does; so the
    // append must be its transaction's first write, which the function now checks before it writes. The
    // body keeps its name from 001 under a new one, so this migration does not repeat it.
    id: '002-append-is-first-write',
    sql: /* sql */ `
ALTER FUNCTION kesher_append_batch(text[], text[], int[], uuid[], text[], jsonb[], jsonb[])
  RENAME TO kesher_append_batch_body;

CREATE FUNCTION kesher_append_batch(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (idx int, status text, revision bigint, tx text, last_position bigint)
LANGUAGE plpgsql AS $fn$
BEGIN
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'an append must be the first write of its transaction (the read horizon counts on it)'
      USING ERRCODE = 'KE001';
  END IF;
  RETURN QUERY SELECT * FROM kesher_append_batch_body(p_streams, p_expected, p_counts, p_ids, p_types, p_data, p_metadata);
END
$fn$;
`,
  },
];
