import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Sql } from '../sql/sql.port.js';
import { createPostgresEventStore } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createProjectionRunner } from './projection-runner.js';
import { testEvent } from '../event-store/testing/test-event.js';

const gate = await postgresAvailability();

const tallied = (n: number) => testEvent('Tallied', { n });

/** Counts the batches it is handed, and what they held. */
function counting(name: string) {
  const batches: number[][] = [];
  const projection: Projection = {
    name,
    version: 1,
    eventTypes: ['Tallied'],
    tables: [],
    migrations: [],
    async apply(_db, events: readonly RecordedEvent[]) {
      batches.push(events.map((e) => (e.data as { n: number }).n));
    },
  };
  return { projection, batches };
}

describe.skipIf(!gate.available)(
  `read models batching a moment of appends (batchDelayMs)${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let sql: Sql;
    let store: EventStore;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ sql, store, close } = await createPostgresEventStore());
    });
    afterAll(async () => close?.());

    it('takes the appends of one moment in one batch when nobody waits for it', async () => {
      const { projection, batches } = counting(`tally-${randomUUID().slice(0, 8)}`);
      const runner = createProjectionRunner({ eventStore: store, sql, projections: [projection], batchDelayMs: 300 });
      await runner.start();
      try {
        const stream = `tally-${randomUUID()}`;
        let last;
        for (let n = 1; n <= 5; n++)
          last = await store.appendToStream(stream, [tallied(n)], {
            expectedRevision: n === 1 ? 'no_stream' : BigInt(n - 2),
          });
        // Watch without waiting for a position: a move is not a demand, so it does not hurry the reader.
        for (let i = 0; i < 100 && batches.flat().length < 5; i++)
          await runner.waitForMove(projection.name, runner.positions()[projection.name], 100);
        expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
        // Five appends, one after the other in a few milliseconds: one batch (two if the first read came between them).
        expect(batches.length).toBeLessThanOrEqual(2);
        await expect.poll(() => runner.positions()[projection.name]).toEqual(last!.position);
      } finally {
        await runner.stop();
      }
    });

    it('reads at once for a read-your-writes wait, instead of after its delay', async () => {
      const { projection, batches } = counting(`tally-${randomUUID().slice(0, 8)}`);
      const runner = createProjectionRunner({
        eventStore: store,
        sql,
        projections: [projection],
        batchDelayMs: 600_000,
      });
      await runner.start();
      try {
        const appended = await store.appendToStream(`tally-${randomUUID()}`, [tallied(7)], {
          expectedRevision: 'no_stream',
        });
        // Without the hurry it would take the whole ten-minute delay, and the wait would time out at 30 s.
        expect(await runner.waitForPosition(appended.position, { timeoutMs: 30_000 })).toBe(true);
        expect(batches.flat()).toContain(7);
      } finally {
        await runner.stop();
      }
    });

    it('stops at once during its delay', async () => {
      const { projection } = counting(`tally-${randomUUID().slice(0, 8)}`);
      const runner = createProjectionRunner({
        eventStore: store,
        sql,
        projections: [projection],
        batchDelayMs: 600_000,
      });
      await runner.start();
      await store.appendToStream(`tally-${randomUUID()}`, [tallied(1)], { expectedRevision: 'no_stream' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await runner.stop();
      // Waiting out the ten-minute delay would be far past this (and past the test's own timeout).
      expect(Date.now() - started).toBeLessThan(30_000);
    });

    it('keeps reading for a wait until past its position, even one an older transaction still hides', async () => {
      const { projection } = counting(`tally-${randomUUID().slice(0, 8)}`);
      const runner = createProjectionRunner({ eventStore: store, sql, projections: [projection], batchDelayMs: 50 });
      await runner.start();
      // A transaction that took its id before the append and is still open: the append stays invisible to
      // readers of the log until it ends (sql-event-store.ts reads only below the oldest open transaction).
      const blocker = await sql.transaction(async (tx) => {
        await tx.query('SELECT pg_current_xact_id()');
        // An event of a type this read model does not take: nothing wakes it, only the wait below.
        const other = await store.appendToStream(`other-${randomUUID()}`, [{ ...tallied(0), type: 'NotTallied' }], {
          expectedRevision: 'no_stream',
        });
        const waited = runner.waitForPosition(other.position, { timeoutMs: 1500 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Wrapped: a promise returned as such would be awaited before the commit.
        return { waited };
      });
      try {
        // The blocker ended after 300 ms: the wait is met well before the idle poll (2 s) would have read again.
        expect(await blocker.waited).toBe(true);
      } finally {
        await runner.stop();
      }
    });
  },
);
