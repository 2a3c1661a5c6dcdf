import { randomUUID } from 'node:crypto';
import type { EventData, EventType, RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { prepareReadModel } from '../../platform/projections/projection-runner.js';
import type { Sql } from '../../platform/sql/sql.port.js';

/**
 * Recorded events for given–then tests of read models: each gets the next log position and the time
 * given (the command's time, which read models bucket by), or the log's current time.
 */
export function eventLog(start = '2026-04-10T09:00:00.000Z') {
  let position = 0n;
  let now = new Date(start);
  return {
    /** Moves the log's clock (later events happen then). */
    at(moment: string | Date) {
      now = new Date(moment);
    },
    record<Type extends EventType>(type: Type, data: EventData<Type>, at?: string): RecordedEvent {
      position++;
      const timestamp = at ? new Date(at) : now;
      return {
        streamId: `test-${position}`,
        streamPosition: 0n,
        position: { commit: position, prepare: position },
        type,
        data,
        metadata: {
          eventId: randomUUID(),
          correlationId: 'test',
          causationId: 'test',
          actor: { kind: 'system', id: 'test' },
          timestamp: timestamp.toISOString(),
          schemaVersion: 1,
        },
        createdAt: timestamp,
      };
    },
  };
}

/** One read model on a database: its schema from its migrations, batches applied as the runner applies them. */
export async function readModelOn(sql: Sql, projection: Projection) {
  await sql.transaction((tx) => prepareReadModel(tx, projection, true));
  return {
    /** Applies the events as one batch, in one transaction. */
    apply: (...events: RecordedEvent[]) => sql.transaction((tx) => projection.apply(tx, events)),
    /** Starts the read model over (empty tables), as a rebuild does. */
    reset: () => sql.transaction((tx) => prepareReadModel(tx, projection, true)),
    /** Every table's rows in a stable order: what two builds of the same log must agree on. */
    async snapshot() {
      const tables: Record<string, unknown[]> = {};
      for (const table of projection.tables) {
        const { rows } = await sql.query(`SELECT * FROM ${table}`);
        tables[table] = rows.map((row) => JSON.stringify(row)).sort();
      }
      return tables;
    },
  };
}
