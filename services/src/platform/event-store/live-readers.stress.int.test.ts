import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AllPosition } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import type { EventStore, Subscription } from './event-store.port.js';
import { createSqlEventStore } from './sql-event-store.js';
import { testEvent } from './testing/test-event.js';

const gate = await postgresAvailability();

const TYPES = ['A', 'B', 'C', 'D', 'E', 'F'];
const WRITERS = 24;
const APPENDS_EACH = 40;

/** A seeded generator, so a failure replays (STRESS_SEED). */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const event = (type: string, writer: number, n: number) => testEvent(type, { key: `${writer}:${n}` });

/**
 * The live readers of a process on real Postgres — polling subscriptions, some batching, some hurried
 * by waiters — while two processes (two stores, two pools: one hears the other by
 * LISTEN) append at once from many writers, in transactions that commit out of their order. Each reader
 * must get every event of its types exactly once and in log order; a reader that read past an event without
 * it would lose it for good (a read model without a workflow's edit). Meanwhile transactions of another
 * database take xids among ours, and one stays open throughout: the horizon must neither wait for them
 * nor mistake one of ours for theirs.
 */
describe.skipIf(!gate.available)(
  `live readers under concurrent appends${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    /** Another database of the same server, whose transactions share the server's xids with ours. */
    let elsewhere: Awaited<ReturnType<typeof createTestDatabase>>;
    const pools: Sql[] = [];
    const stores: EventStore[] = [];
    beforeAll(async () => {
      db = await createTestDatabase();
      elsewhere = await createTestDatabase('kesher_scratch', { empty: true });
      for (let i = 0; i < 2; i++) {
        const sql = createPgSql({ connectionString: db.url, max: 6 });
        pools.push(sql);
        stores.push(await createSqlEventStore({ sql }));
      }
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      for (const sql of pools) await sql.close();
      await db?.drop();
      await elsewhere?.drop();
    });

    it('each reader gets every event of its types once, in order', { timeout: 120_000 }, async () => {
      const seed = Number(process.env.STRESS_SEED ?? (process.env.CI === 'true' ? 20261127 : Date.now() % 1_000_000));
      const rand = random(seed);
      const [local, remote] = stores as [EventStore, EventStore];
      const filters: (readonly string[] | undefined)[] = [
        undefined,
        ['A'],
        ['B', 'C'],
        ['D'],
        ['E', 'F', 'A'],
        ['F'],
        ['C'],
        undefined,
      ];
      const readers = filters.map((types, i) => {
        const got: { key: string; type: string; position: AllPosition }[] = [];
        const subscription: Subscription = local.subscribeToAll({
          maxCount: 1 + Math.floor(rand() * 60),
          ...(types ? { filter: { eventTypes: types } } : {}),
          ...(i % 2 === 0 ? { batchDelayMs: 5 + Math.floor(rand() * 40) } : {}),
          onBatch: async (batch) => {
            for (const e of batch.events)
              got.push({ key: (e.data as { key: string }).key, type: e.type, position: e.position });
            // A slow reader now and then, so the readers spread out over the tail and the table.
            if (rand() < 0.1) await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 30)));
          },
        });
        return { types, got, subscription };
      });

      // Strangers in another database: one transaction open throughout (it must hold nobody back), and
      // short ones taking xids between ours, so the readers' snapshots hold foreign and own xids mixed.
      const stranger = async () => {
        const client = new pg.Client({ connectionString: elsewhere.url });
        await client.connect();
        return client;
      };
      const longOne = await stranger();
      // Its session ends with the scratch database (afterAll) if an assertion fails first.
      longOne.on('error', () => {});
      await longOne.query('BEGIN');
      await longOne.query('SELECT pg_current_xact_id()');
      let writing = true;
      const strangers = Array.from({ length: 3 }, async () => {
        const client = await stranger();
        while (writing) {
          await client.query('BEGIN');
          await client.query('SELECT pg_current_xact_id()');
          await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 20)));
          await client.query('COMMIT');
        }
        await client.end();
      });

      const expected: { key: string; type: string }[] = [];
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          const store = writer % 3 === 0 ? remote : local;
          for (let n = 0; n < APPENDS_EACH; n++) {
            const count = 1 + Math.floor(rand() * 3);
            const events = Array.from({ length: count }, (_, k) =>
              event(TYPES[Math.floor(rand() * TYPES.length)]!, writer, n * 10 + k),
            );
            const appended = await store.appendToStream(`s${writer}-${n}-${randomUUID()}`, events, {
              expectedRevision: 'no_stream',
            });
            expected.push(...events.map((e) => ({ key: (e.data as { key: string }).key, type: e.type })));
            // A waiter hurries a reader now and then, as read-your-writes does.
            if (rand() < 0.2) readers[Math.floor(rand() * readers.length)]!.subscription.hurry?.(appended.position);
            if (rand() < 0.3) await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 5)));
          }
        }),
      );

      writing = false;
      await Promise.all(strangers);

      // One sentinel of every type, appended after everything else: a reader that has its sentinel has been
      // handed everything before it in the log, so a missing, late or repeated event would show by then
      // (no quiet period to wait out, however slow the machine).
      const sentinel = (key: string) => key.startsWith('-1:');
      const end = await local.appendToStream(
        `sentinels-${randomUUID()}`,
        TYPES.map((type, i) => event(type, -1, i)),
        { expectedRevision: 'no_stream' },
      );
      for (const reader of readers) {
        const want = expected.filter((e) => !reader.types || reader.types.includes(e.type));
        reader.subscription.hurry?.(end.position);
        await expect
          .poll(() => reader.got.some((e) => sentinel(e.key)), {
            timeout: 30_000,
            interval: 50,
            message: `seed ${seed}, reader of ${reader.types?.join(',') ?? 'everything'}`,
          })
          .toBe(true);
        const got = reader.got.filter((e) => !sentinel(e.key));
        expect(got.map((e) => e.key).sort(), `seed ${seed}`).toEqual(want.map((e) => e.key).sort());
        const positions = reader.got.map((e) => e.position);
        for (let i = 1; i < positions.length; i++) {
          const [a, b] = [positions[i - 1]!, positions[i]!];
          expect(
            a.commit < b.commit || (a.commit === b.commit && a.prepare < b.prepare),
            `seed ${seed}: in log order`,
          ).toBe(true);
        }
      }
      for (const reader of readers) await reader.subscription.stop();
      await longOne.query('ROLLBACK');
      await longOne.end();
    });
  },
);
