import { comparePositions, type AllPosition, type NewEvent } from '@kesher/contracts';
import type { SqlExecutor } from '../sql/sql.port.js';
import {
  StreamDeletedError,
  WrongExpectedVersionError,
  type AppendResult,
  type ExpectedRevision,
} from './event-store.port.js';

interface PendingAppend {
  streamId: string;
  events: readonly NewEvent[];
  expectedRevision: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

interface OutcomeRow {
  idx: number;
  status: 'ok' | 'conflict' | 'deleted';
  revision: string | null;
  tx: string | null;
  last_position: string | null;
}

/**
 * Group commit for appends. Callers arriving while earlier batches are in flight wait and then go
 * together in one call of `kesher_append_batch`, sharing one transaction and one WAL flush. Under
 * light load a batch holds a single append, so latency is unchanged; under load, throughput grows
 * with the number of waiting writers instead of being capped by one fsync per append.
 */
export function createAppendBatcher(deps: {
  db: SqlExecutor;
  maxInFlight: number;
  maxEventsPerBatch?: number;
  /** After each committed batch, with the newest position it wrote (undefined when nothing was written) and the types written. */
  onCommitted?: (newest: AllPosition | undefined, types: ReadonlySet<string>) => void;
}) {
  const maxEvents = deps.maxEventsPerBatch ?? 1000;
  const queue: PendingAppend[] = [];
  let inFlight = 0;

  function take(): PendingAppend[] {
    const batch: PendingAppend[] = [];
    let events = 0;
    while (queue.length > 0 && (batch.length === 0 || events + queue[0]!.events.length <= maxEvents)) {
      const next = queue.shift()!;
      events += next.events.length;
      batch.push(next);
    }
    return batch;
  }

  async function call(batch: PendingAppend[]): Promise<OutcomeRow[]> {
    const events = batch.flatMap((append) => append.events);
    const { rows } = await deps.db.query<OutcomeRow>(
      `SELECT idx, status, revision::text AS revision, tx, last_position::text AS last_position
       FROM kesher_append_batch($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])`,
      [
        batch.map((a) => a.streamId),
        batch.map((a) => String(a.expectedRevision)),
        batch.map((a) => a.events.length),
        events.map((e) => e.metadata.eventId),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
      ],
    );
    return rows;
  }

  function settle(append: PendingAppend, row: OutcomeRow) {
    if (row.status === 'ok') {
      append.resolve({
        nextExpectedRevision: BigInt(row.revision!),
        position: { commit: BigInt(row.tx!), prepare: BigInt(row.last_position!) },
      });
    } else if (row.status === 'deleted') {
      append.reject(new StreamDeletedError(append.streamId));
    } else {
      append.reject(
        new WrongExpectedVersionError(
          append.streamId,
          append.expectedRevision,
          row.revision === null ? 'no_stream' : BigInt(row.revision),
        ),
      );
    }
  }

  async function run(batch: PendingAppend[]) {
    // Same stream order in every batch, so two batches never wait on each other's locks in a cycle.
    // The sort is stable: appends to one stream keep their arrival order.
    const ordered = [...batch].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    try {
      const rows = await call(ordered);
      rows.forEach((row) => settle(ordered[row.idx - 1]!, row));
      let newest: AllPosition | undefined;
      const types = new Set<string>();
      for (const row of rows) {
        if (row.status !== 'ok') continue;
        const position = { commit: BigInt(row.tx!), prepare: BigInt(row.last_position!) };
        if (!newest || comparePositions(position, newest) > 0) newest = position;
        for (const event of ordered[row.idx - 1]!.events) types.add(event.type);
      }
      deps.onCommitted?.(newest, types);
    } catch (error) {
      if (ordered.length === 1) return ordered[0]!.reject(error);
      // One append broke the whole transaction (a duplicate event id, say): retry each alone so the
      // error reaches only the caller who caused it.
      await Promise.all(ordered.map((append) => run([append])));
    }
  }

  function pump() {
    while (inFlight < deps.maxInFlight && queue.length > 0) {
      const batch = take();
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  return function append(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      queue.push({ streamId, events, expectedRevision, resolve, reject });
      pump();
    });
  };
}
