/**
 * The gap-free event log (DESIGN §4, after Emmett): every row records the id of the transaction that
 * wrote it, and readers only take rows whose transaction is older than the oldest one still running
 * (`pg_snapshot_xmin`), ordered by (transaction_id, global_position). A late commit with a lower
 * sequence number therefore can never be skipped by a reader that already moved on.
 *
 * Appends go through one plpgsql function so a write is a single round trip and a single short
 * transaction: check the expected revision under a row lock, bump the stream, insert the events.
 */
export const EVENTS_CHANNEL = 'kesher_events';

export const eventStoreSchema = /* sql */ `
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

CREATE OR REPLACE FUNCTION kesher_append(
  p_stream text, p_expected text, p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, tx text, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  current_version bigint;
  is_deleted boolean;
  new_version bigint;
BEGIN
  SELECT s.version, s.deleted INTO current_version, is_deleted FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
  IF is_deleted THEN
    RAISE EXCEPTION 'stream % is deleted', p_stream USING ERRCODE = 'KS002';
  END IF;
  IF (p_expected = 'no_stream' AND current_version IS NOT NULL)
     OR (p_expected = 'stream_exists' AND current_version IS NULL)
     OR (p_expected ~ '^-?[0-9]+$' AND current_version IS DISTINCT FROM p_expected::bigint) THEN
    RAISE EXCEPTION 'wrong expected version' USING ERRCODE = 'KS001', DETAIL = coalesce(current_version::text, 'no_stream');
  END IF;
  new_version := coalesce(current_version, -1) + cardinality(p_ids);
  IF current_version IS NULL THEN
    -- Two first appends racing both see no row; the loser hits the primary key (mapped to a conflict).
    INSERT INTO streams (stream_id, version) VALUES (p_stream, new_version);
  ELSE
    UPDATE streams SET version = new_version WHERE stream_id = p_stream;
  END IF;
  INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
  SELECT p_stream, coalesce(current_version, -1) + i, p_ids[i], p_types[i], p_data[i], p_metadata[i]
  FROM generate_subscripts(p_ids, 1) AS i ORDER BY i;
  PERFORM pg_notify('${EVENTS_CHANNEL}', '');
  RETURN QUERY SELECT new_version, pg_current_xact_id()::text, currval('events_global_position_seq');
END
$fn$;
`;
