import { comparePositions, START_POSITION, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import type { AllBatch, EventStore } from '../event-store/event-store.port.js';
import { SCHEMA_LOCK_KEY, type Sql } from '../sql/sql.port.js';
import { advanceCheckpoint, resetCheckpoint } from './checkpoints.js';
import { prepareReadModel } from './projection-runner.js';

export interface RebuildTogetherDeps {
  eventStore: Pick<EventStore, 'readAll' | 'headPosition'>;
  sql: Sql;
  projections: readonly Projection[];
  /** Events read and applied per transaction. Large: a rebuild sums more of each batch in memory. */
  batchSize?: number;
  onBatch?(progress: RebuildProgress): void;
}

export interface RebuildProgress {
  /** Events read so far (of the projections' types). */
  events: number;
  position: AllPosition;
  head: AllPosition;
}

export class RebuildInterruptedError extends Error {
  constructor(name: string) {
    super(`the checkpoint of ${name} was moved by another reader (a running projector continues the rebuild from it)`);
  }
}

const DEFAULT_BATCH = 20_000;

/**
 * Drops several read models and computes them again from the first event in ONE pass over the log: one
 * reader takes every event any of them wants, and each batch is applied to each of them in a
 * transaction that also moves that one's own checkpoint (all of them at once, then the next batch).
 * Reading and parsing the log once instead of once per read model, and summing large batches in memory,
 * is what makes a rebuild of all the analytics read models faster than their subscriptions side by side.
 *
 * The checkpoints are the projector's own: once this returns (up to the head it saw on starting), a
 * projector picks every one of them up where the rebuild left it. If another reader moves one meanwhile
 * (a projector running elsewhere), that read model's batch is rolled back and `RebuildInterruptedError`
 * says so: that reader carries on from its last committed batch, so nothing is lost or counted twice.
 */
export async function rebuildTogether(deps: RebuildTogetherDeps): Promise<{ events: number; position: AllPosition }> {
  const { sql, eventStore, projections } = deps;
  const batchSize = deps.batchSize ?? DEFAULT_BATCH;
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    for (const projection of projections) {
      await prepareReadModel(tx, projection, true);
      await resetCheckpoint(tx, projection.name, projection.version);
    }
  });

  const head = await eventStore.headPosition();
  const wanted = projections.map((projection) => ({ projection, types: new Set(projection.eventTypes) }));
  const filter = { eventTypes: [...new Set(projections.flatMap((projection) => projection.eventTypes))] };
  const read = (after: AllPosition) => eventStore.readAll({ after, maxCount: batchSize, filter });

  let position = START_POSITION;
  let events = 0;
  let next: Promise<AllBatch> = read(position);
  for (;;) {
    const batch = await next;
    const done = batch.atEnd || comparePositions(batch.next, head) >= 0;
    // The next page is read (and parsed) while this one is written.
    if (!done) {
      next = read(batch.next);
      // Awaited on the next turn; a failure here must not surface as unhandled if this batch fails first.
      next.catch(() => {});
    }
    if (comparePositions(batch.next, position) > 0) {
      const from = position;
      // Each read model takes the batch in its own transaction with its own checkpoint, all at once:
      // their tables are their own, so Postgres writes them side by side (on several cores where there
      // are) while Node prepares the next one's rows.
      await Promise.all(
        wanted.map(({ projection, types }) =>
          sql.transaction(async (tx) => {
            // Not waiting for the WAL flush is safe here: a batch lost to a crash is lost with its
            // checkpoint, and read again from the last one that was flushed.
            if (sql.kind === 'postgres') await tx.query('SET LOCAL synchronous_commit = off');
            const own: RecordedEvent[] = batch.events.filter((event) => types.has(event.type));
            if (own.length > 0) await projection.apply(tx, own);
            if (!(await advanceCheckpoint(tx, projection.name, from, batch.next)))
              throw new RebuildInterruptedError(projection.name);
          }),
        ),
      );
    }
    position = batch.next;
    events += batch.events.length;
    deps.onBatch?.({ events, position, head });
    if (done) break;
  }
  return { events, position };
}
