import { PGlite } from '@electric-sql/pglite';
import { validateNewEvent, type EventData, type EventType, type RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { randomUUID } from 'node:crypto';

/**
 * Given/then tests of one read model: given these events, then these rows. The read model runs on an
 * in-memory PGlite (real Postgres, compiled to WebAssembly) with its own migrations applied, and each
 * `given` is one batch handed to `apply`, as the runner hands it. Every event is first validated against
 * its registry schema (`validateNewEvent`, what the store does on append), so a test cannot feed a read
 * model a shape the log would refuse.
 */
export interface ReadModelUnderTest {
  db: Queryable;
  /** Applies the events as one batch (in the order given). */
  given(...events: RecordedEvent[]): Promise<void>;
  /** The rows of a query, for `then` assertions. */
  rows<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Empties the read model's tables, for the next test (starting PGlite is what costs: once per file). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function readModel(projection: Projection): Promise<ReadModelUnderTest> {
  const pglite = await PGlite.create();
  for (const migration of projection.migrations) await pglite.exec(migration.sql);
  const db: Queryable = {
    query: async (text, params) => pglite.query(text, params ? [...params] : []),
  };
  return {
    db,
    async given(...events) {
      const own = events.filter((event) => projection.eventTypes.includes(event.type));
      await pglite.transaction(async (tx) =>
        projection.apply({ query: async (text, params) => tx.query(text, params ? [...params] : []) }, own),
      );
    },
    rows: async <Row>(text: string, params?: readonly unknown[]) => (await db.query<Row>(text, params)).rows,
    reset: async () => void (await pglite.exec(`TRUNCATE ${projection.tables.join(', ')}`)),
    close: () => pglite.close(),
  };
}

let position = 0n;

/** A recorded event of a known type, as read back from the log (positions increase across a test file). */
export function recorded<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: { at?: string; stream?: string; actor?: RecordedEvent['metadata']['actor'] } = {},
): RecordedEvent<T, EventData<T>> {
  validateNewEvent(type, data);
  position += 1n;
  const timestamp = options.at ?? '2026-11-01T10:00:00.000Z';
  return {
    streamId: options.stream ?? `test-${type}`,
    streamPosition: position,
    position: { commit: position, prepare: position },
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: 'test',
      causationId: 'test',
      actor: options.actor ?? { kind: 'system', id: 'test' },
      timestamp,
      schemaVersion: 1,
    },
    createdAt: new Date(timestamp),
  };
}
