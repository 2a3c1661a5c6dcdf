import { eventDefinitions, positionToString, upcast, type AllPosition } from '@kesher/contracts';
import { HORIZON_SQL } from '../../platform/event-store/read-horizon.js';
import type { Sql } from '../../platform/sql/sql.port.js';

/** One stored event as the export needs it: its line ready to write, and what it is filtered by. */
export interface RawEvent {
  position: AllPosition;
  streamId: string;
  type: string;
  timestamp: string;
  /** The data's ownerId / assistantOwnerId / assistantId / accountId, read in SQL (ownership). */
  owners: { ownerId?: string; assistantOwnerId?: string; assistantId?: string; accountId?: string };
  line: string;
}

/**
 * The Postgres (and PGlite) log read as text for the export: Postgres renders each event's data and
 * metadata as JSON text and picks out the few fields the filters need, so Node parses nothing — the
 * export writes ~3× as many events per second as through the event store port, which parses every event.
 * The order and the visibility rule are the store's own (docs/event-store.md): `(transaction_id,
 * global_position)`, only transactions below the read horizon (HORIZON_SQL, taken in the same statement:
 * Kesher's own writers, not a transaction left open in another database of the server). An event stored at an older schema
 * version than its type's current one is parsed and upcast, as the store would on read.
 */
export function createSqlLogReader(sql: Sql) {
  return {
    async head(): Promise<AllPosition> {
      const { rows } = await sql.query<{ tx: string; pos: string }>(
        `WITH snapshot AS (${HORIZON_SQL})
         SELECT transaction_id::text AS tx, global_position::text AS pos FROM events, snapshot
         WHERE transaction_id < snapshot.horizon ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
      );
      return rows[0] ? { commit: BigInt(rows[0].tx), prepare: BigInt(rows[0].pos) } : { commit: 0n, prepare: 0n };
    },

    async page(after: AllPosition, limit: number, types?: readonly string[]): Promise<RawEvent[]> {
      const params: unknown[] = [after.commit.toString(), after.prepare.toString(), limit];
      let filter = '';
      if (types) {
        params.push(types);
        filter = `AND event_type = ANY($4::text[])`;
      }
      const { rows } = await sql.query<{
        tx: string;
        pos: string;
        stream_id: string;
        stream_position: string;
        event_id: string;
        event_type: string;
        data: string;
        metadata: string;
        created_at: string;
        ts: string;
        version: string | null;
        owner_id: string | null;
        assistant_owner_id: string | null;
        assistant_id: string | null;
        account_id: string | null;
      }>(
        `SELECT transaction_id::text AS tx, global_position::text AS pos, stream_id, stream_position::text AS stream_position, event_id::text AS event_id, event_type,
           data::text AS data, metadata::text AS metadata, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
           metadata->>'timestamp' AS ts, metadata->>'schemaVersion' AS version, data->>'ownerId' AS owner_id, data->>'assistantOwnerId' AS assistant_owner_id,
           data->>'assistantId' AS assistant_id, data->>'accountId' AS account_id
         FROM events, (${HORIZON_SQL}) AS snapshot
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) AND transaction_id < snapshot.horizon ${filter}
         ORDER BY transaction_id, global_position LIMIT $3`,
        params,
      );
      return rows.map((row) => {
        const position = { commit: BigInt(row.tx), prepare: BigInt(row.pos) };
        const current = eventDefinitions[row.event_type as keyof typeof eventDefinitions]?.version ?? 1;
        const stored = Number(row.version ?? 1);
        const data = stored < current ? JSON.stringify(upcast(row.event_type, JSON.parse(row.data), stored)) : row.data;
        // The relay's message shape (relayed-event.ts), field for field.
        const line = `{"eventId":${JSON.stringify(row.event_id)},"streamId":${JSON.stringify(row.stream_id)},"streamPosition":"${row.stream_position}","position":"${positionToString(position)}","type":${JSON.stringify(row.event_type)},"data":${data},"metadata":${row.metadata},"createdAt":"${row.created_at}"}`;
        return {
          position,
          streamId: row.stream_id,
          type: row.event_type,
          timestamp: row.ts,
          owners: {
            ownerId: row.owner_id ?? undefined,
            assistantOwnerId: row.assistant_owner_id ?? undefined,
            assistantId: row.assistant_id ?? undefined,
            accountId: row.account_id ?? undefined,
          },
          line,
        };
      });
    },
  };
}

export type SqlLogReader = ReturnType<typeof createSqlLogReader>;
