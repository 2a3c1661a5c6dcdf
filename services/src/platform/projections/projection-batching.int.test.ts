import { randomUUID } from 'node:crypto';
import { comparePositions, START_POSITION, type RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Sql } from '../sql/sql.port.js';
import { createPostgresEventStore } from '../../testing/platform-fixture.js';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createProjectionRunner } from './projection-runner.js';
import { rawAppend, testEvent } from '../event-store/testing/test-event.js';

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
      // A store whose subscriptions do not poll on their own in this test: the wait below can be met only by
      // the reader reading again for it, however slow the machine. (Idle polls fall on a grid of the clock,
      // so the next could come any time within one period: of 23 days, not within this test.)
      const quiet = await createSqlEventStore({ sql, idlePollMs: 2_000_000_000 });
      const { projection } = counting(`tally-${randomUUID().slice(0, 8)}`);
      const runner = createProjectionRunner({ eventStore: quiet, sql, projections: [projection], batchDelayMs: 50 });
      await runner.start();
      // An appender whose append is written and not committed: it took its xid first, so the append after it
      // stays invisible to readers of the log until it ends (read-horizon.ts).
      const blocker = await sql.transaction(async (tx) => {
        const { text, values } = rawAppend(`blocker-${randomUUID()}`, { ...tallied(-1), type: 'NotTallied' });
        await tx.query(text, values);
        // An event of a type this read model does not take: nothing wakes it, only the wait below.
        const other = await quiet.appendToStream(`other-${randomUUID()}`, [{ ...tallied(0), type: 'NotTallied' }], {
          expectedRevision: 'no_stream',
        });
        const waited = runner.waitForPosition(other.position, { timeoutMs: 30_000 });
        // Hidden while the appender is open: the reader has read (it was hurried) and is not past it.
        await runner.waitForMove(projection.name, runner.positions()[projection.name], 300);
        const hidden = comparePositions(runner.positions()[projection.name] ?? START_POSITION, other.position) < 0;
        // Wrapped: a promise returned as such would be awaited before the commit.
        return { waited, hidden };
      });
      try {
        expect(blocker.hidden).toBe(true);
        // The appender committed: the wait is met by the reader reading again for it (no idle poll runs here).
        expect(await blocker.waited).toBe(true);
      } finally {
        await runner.stop();
        await quiet.close();
      }
    });
  },
);
