import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Sql, SqlTransaction } from '../sql/sql.port.js';
import { createPostgresEventStore } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createCheckpointedSubscription } from './checkpointed-subscription.js';
import { createProgressBoard } from './progress.js';
import { noted } from '../event-store/testing/test-event.js';

const gate = await postgresAvailability();

const numbers = (events: readonly RecordedEvent[]) => events.map((e) => (e.data as { n: number }).n);

/**
 * Postgres ends the session that loads the checkpoint at start (a restart, a failover,
 * pg_terminate_backend): the start loads it again on a new session and the reader runs, instead of the
 * start failing and the projector process exiting 1. An error of the work itself still fails the start.
 */
describe.skipIf(!gate.available)(
  `the checkpointed subscription's start${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let sql: Sql;
    let store: EventStore;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ sql, store, close } = await createPostgresEventStore());
    });
    afterAll(async () => close?.());

    const reader = (
      name: string,
      prepare: (tx: SqlTransaction) => Promise<void>,
      delivered: number[],
      progress = createProgressBoard(),
    ) => ({
      progress,
      subscription: createCheckpointedSubscription({
        name,
        version: 1,
        eventStore: store,
        sql,
        filter: { categories: [name] },
        handler: { deliver: async (events) => void delivered.push(...numbers(events)) },
        prepare,
        checkpointDelayMs: 20,
        progress,
        retryDelayMs: 10,
        startRetryMs: 10_000,
      }),
    });

    it('loads the checkpoint again when its session is ended during the start, then follows the log', async () => {
      const last = await store.appendToStream(`ended-${randomUUID()}`, [noted(1), noted(2)], {
        expectedRevision: 'no_stream',
      });
      let loads = 0;
      const delivered: number[] = [];
      const { subscription, progress } = reader(
        'ended',
        async (tx) => {
          // The first load's session is ended by the server under it, as a failover would.
          if (++loads === 1) await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
        },
        delivered,
      );
      await subscription.start();
      expect(loads).toBe(2);
      expect(await progress.waitFor(['ended'], last.position, 10_000)).toBe(true);
      await subscription.stop();
      expect(delivered).toEqual([1, 2]);
    });

    it('fails the start at once on an error that is not a lost session', async () => {
      let loads = 0;
      const { subscription } = reader(
        'broken',
        async (tx) => {
          loads++;
          await tx.query('SELECT * FROM no_such_table_here');
        },
        [],
      );
      await expect(subscription.start()).rejects.toThrow(/no_such_table_here/);
      expect(loads).toBe(1);
      await subscription.stop();
    });
  },
);
