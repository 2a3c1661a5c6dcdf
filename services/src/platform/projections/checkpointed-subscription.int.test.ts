import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Sql } from '../sql/sql.port.js';
import { createPostgresEventStore } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createCheckpointedSubscription, type BatchHandler } from './checkpointed-subscription.js';
import { readCheckpoint, resetCheckpoint } from './checkpoints.js';
import { createProgressBoard } from './progress.js';
import { noted } from '../event-store/testing/test-event.js';

const gate = await postgresAvailability();

const numbers = (events: readonly RecordedEvent[]) => events.map((e) => (e.data as { n: number }).n);

describe.skipIf(!gate.available)(
  `the checkpointed subscription${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let sql: Sql;
    let store: EventStore;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ sql, store, close } = await createPostgresEventStore());
    });
    afterAll(async () => close?.());

    const reader = (name: string, handler: BatchHandler, progress = createProgressBoard()) => ({
      progress,
      subscription: createCheckpointedSubscription({
        name,
        version: 1,
        eventStore: store,
        sql,
        filter: { categories: [name] },
        batchSize: 2,
        handler,
        checkpointDelayMs: 20,
        progress,
        retryDelayMs: 10,
      }),
    });

    it('deliver: a failing batch is delivered again from the checkpoint, stop writes the position, a restart goes on from it', async () => {
      const stream = `deliver-${randomUUID()}`;
      let last = await store.appendToStream(stream, [noted(1), noted(2), noted(3), noted(4), noted(5)], {
        expectedRevision: 'no_stream',
      });
      const delivered: number[] = [];
      let failOnce = true;
      const first = reader('deliver', {
        async deliver(events) {
          if (failOnce && numbers(events).includes(3)) {
            failOnce = false;
            throw new Error('the bus is down');
          }
          delivered.push(...numbers(events));
        },
      });
      await first.subscription.start();
      expect(await first.progress.waitFor(['deliver'], last.position, 10_000)).toBe(true);
      await first.subscription.stop();
      // Every event arrived; what came before the failure may have come twice (at least once), nothing is missing.
      expect(new Set(delivered)).toEqual(new Set([1, 2, 3, 4, 5]));
      expect((await readCheckpoint(sql, 'deliver'))?.position).toEqual(last.position);

      last = await store.appendToStream(stream, [noted(6)], { expectedRevision: 4n });
      const again: number[] = [];
      const second = reader('deliver', { deliver: async (events) => void again.push(...numbers(events)) });
      await second.subscription.start();
      expect(await second.progress.waitFor(['deliver'], last.position, 10_000)).toBe(true);
      await second.subscription.stop();
      expect(again).toEqual([6]);
    });

    it('apply: a batch whose transaction fails leaves no trace and is applied once when retried', async () => {
      await sql.exec(`CREATE TABLE applied_numbers (n int PRIMARY KEY)`);
      const stream = `apply-${randomUUID()}`;
      const last = await store.appendToStream(stream, [noted(1), noted(2), noted(3), noted(4)], {
        expectedRevision: 'no_stream',
      });
      let failOnce = true;
      const { subscription, progress } = reader('apply', {
        async apply(tx, events) {
          for (const n of numbers(events)) await tx.query(`INSERT INTO applied_numbers (n) VALUES ($1)`, [n]);
          // Fails after writing: the rows and the checkpoint move must roll back together.
          if (failOnce && numbers(events).includes(3)) {
            failOnce = false;
            throw new Error('apply failed');
          }
        },
      });
      await subscription.start();
      expect(await progress.waitFor(['apply'], last.position, 10_000)).toBe(true);
      await subscription.stop();
      // A duplicate insert would have failed the primary key: each number was applied exactly once.
      expect((await sql.query<{ n: number }>(`SELECT n FROM applied_numbers ORDER BY n`)).rows.map((r) => r.n)).toEqual(
        [1, 2, 3, 4],
      );
    });

    it('notices another reader moving its checkpoint (a replay) and resumes from what is stored', async () => {
      const stream = `moved-${randomUUID()}`;
      const last = await store.appendToStream(stream, [noted(1), noted(2), noted(3)], {
        expectedRevision: 'no_stream',
      });
      const delivered: number[] = [];
      const { subscription, progress } = reader('moved', {
        deliver: async (events) => void delivered.push(...numbers(events)),
      });
      await subscription.start();
      expect(await progress.waitFor(['moved'], last.position, 10_000)).toBe(true);
      await expect.poll(async () => (await readCheckpoint(sql, 'moved'))?.position).toEqual(last.position);
      // A replay elsewhere sets the checkpoint back to the start; the next write finds it moved.
      await resetCheckpoint(sql, 'moved', 1);
      await store.appendToStream(stream, [noted(4)], { expectedRevision: 2n });
      await expect.poll(() => delivered.filter((n) => n === 1).length, { timeout: 30_000 }).toBe(2);
      await subscription.stop();
      expect(delivered.slice(0, 3)).toEqual([1, 2, 3]);
      expect(new Set(delivered.slice(3))).toEqual(new Set([1, 2, 3, 4]));
    });
  },
);
