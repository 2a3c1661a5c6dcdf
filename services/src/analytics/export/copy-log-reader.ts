import { eventDefinitions, type AllPosition } from '@kesher/contracts';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { HORIZON_SQL } from '../../platform/event-store/read-horizon.js';

/** Which stretch of the log a COPY writes, and what it keeps of it. */
export interface CopyRange {
  after: AllPosition;
  /** The last position included. */
  upto: AllPosition;
  types?: readonly string[];
  /** ISO instants, both ends included, compared with each event's own time (metadata.timestamp). */
  from?: string;
  to?: string;
}

/**
 * A line Postgres marks with this byte (before its `{`) holds data stored at an older schema version than
 * its type's current one: the export parses and upcasts only those. JSON text never holds a raw control
 * byte (Postgres writes them as \u0002), so the mark cannot occur inside a line.
 */
export const UPCAST_MARK = 0x02;

const position = (p: AllPosition) =>
  `(${BigInt(p.commit).toString()}::text::xid8, ${BigInt(p.prepare).toString()}::bigint)`;

/** The types some stored events may predate the current schema of, by their current version. */
function upcastCondition() {
  const byVersion = new Map<number, string[]>();
  for (const [type, definition] of Object.entries(eventDefinitions)) {
    if (definition.version > 1) byVersion.set(definition.version, [...(byVersion.get(definition.version) ?? []), type]);
  }
  if (byVersion.size === 0) return 'false';
  return [...byVersion]
    .map(
      ([version, types]) =>
        `(event_type IN (${types.map((t) => pg.escapeLiteral(t)).join(', ')}) AND coalesce((metadata->>'schemaVersion')::int, 1) < ${version})`,
    )
    .join(' OR ');
}

/**
 * The Postgres log read with `COPY … TO STDOUT` for the NDJSON export: Postgres writes every line whole
 * (the relay's message shape, field for field — see relayed-event.ts) and Node passes the bytes on
 * without parsing a row. CSV with a quote byte and a delimiter JSON text cannot contain makes COPY write
 * each line as it is. The log is cut into pages of positions first (an index-only walk), so progress is
 * known page by page and the order and visibility rule stay the store's own: `(transaction_id,
 * global_position)`, up to a head below the read horizon (HORIZON_SQL): every event up to it is committed
 * or never will be, and a transaction open in another database of the server does not hold it back.
 */
export function createCopyLogReader(connectionString: string) {
  // Two pages can be copied at once (the exporter reads the next while it writes one), plus page ends.
  const pool = new pg.Pool({ connectionString, application_name: 'kesher-export', max: 3 });
  pool.on('error', () => {});
  // A session ended while a client is checked out (a restart, pg_terminate_backend during a COPY) makes pg
  // emit 'error' on that client, and the pool listens only to idle ones: unheard, it exits the process. The
  // query or COPY under way fails on its own; the client goes back broken. Listening from the connection on
  // (as pg.sql.ts does) also hears a FATAL that arrives before a caller could add a listener.
  pool.on('connect', (client) => client.on('error', () => {}));

  return {
    async head(): Promise<AllPosition> {
      const { rows } = await pool.query<{ tx: string; pos: string }>(
        `WITH snapshot AS (${HORIZON_SQL})
         SELECT transaction_id::text AS tx, global_position::text AS pos FROM events, snapshot
         WHERE transaction_id < snapshot.horizon ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
      );
      return rows[0] ? { commit: BigInt(rows[0].tx), prepare: BigInt(rows[0].pos) } : { commit: 0n, prepare: 0n };
    },

    /** The end of the next page: `limit` events (of `types`) after `after`, or fewer up to `head`; and how many. */
    async pageEnd(
      after: AllPosition,
      head: AllPosition,
      limit: number,
      types?: readonly string[],
    ): Promise<{ upto: AllPosition; events: number }> {
      const params: unknown[] = [
        after.commit.toString(),
        after.prepare.toString(),
        head.commit.toString(),
        head.prepare.toString(),
        limit,
      ];
      if (types) params.push(types);
      const { rows } = await pool.query<{ tx: string; pos: string; n: number }>(
        `WITH page AS (
           SELECT transaction_id, global_position FROM events
           WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) AND (transaction_id, global_position) <= ($3::text::xid8, $4::bigint)
             ${types ? 'AND event_type = ANY($6::text[])' : ''}
           ORDER BY transaction_id, global_position LIMIT $5
         )
         SELECT transaction_id::text AS tx, global_position::text AS pos, (SELECT count(*)::int FROM page) AS n FROM page
         ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
        params,
      );
      const row = rows[0];
      // Fewer than `limit` left: the page runs to the head (nothing more of these types before it).
      if (!row || row.n < limit) return { upto: head, events: row?.n ?? 0 };
      return { upto: { commit: BigInt(row.tx), prepare: BigInt(row.pos) }, events: row.n };
    },

    /** The page's lines, as Postgres writes them, a chunk at a time (a chunk may end inside a line). */
    async *copy(range: CopyRange): AsyncGenerator<Buffer> {
      const where = [
        `(transaction_id, global_position) > ${position(range.after)}`,
        `(transaction_id, global_position) <= ${position(range.upto)}`,
      ];
      if (range.types) where.push(`event_type IN (${range.types.map((t) => pg.escapeLiteral(t)).join(', ')})`);
      if (range.from)
        where.push(`(metadata->>'timestamp')::timestamptz >= ${pg.escapeLiteral(range.from)}::timestamptz`);
      if (range.to) where.push(`(metadata->>'timestamp')::timestamptz <= ${pg.escapeLiteral(range.to)}::timestamptz`);
      const line = `CASE WHEN ${upcastCondition()} THEN E'\\x02' ELSE '' END
        || '{"eventId":"' || event_id::text || '","streamId":' || to_json(stream_id)::text || ',"streamPosition":"' || stream_position::text
        || '","position":"' || transaction_id::text || ':' || global_position::text || '","type":' || to_json(event_type)::text
        || ',"data":' || data::text || ',"metadata":' || metadata::text
        || ',"createdAt":"' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'`;
      const client = await pool.connect();
      let finished = false;
      try {
        const stream = client.query(
          copyTo(
            `COPY (SELECT ${line} FROM events WHERE ${where.join(' AND ')} ORDER BY transaction_id, global_position) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x03')`,
          ),
        );
        for await (const chunk of stream) yield chunk as Buffer;
        finished = true;
      } finally {
        // A connection left in the middle of a COPY is not reusable: dropped instead.
        client.release(!finished);
      }
    },

    close: () => pool.end(),
  };
}

export type CopyLogReader = ReturnType<typeof createCopyLogReader>;
