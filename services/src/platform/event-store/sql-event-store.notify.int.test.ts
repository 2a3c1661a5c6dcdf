import type { RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import type { EventStore, Subscription } from './event-store.port.js';
import { createSqlEventStore } from './sql-event-store.js';
import { noted } from './testing/test-event.js';

const gate = await postgresAvailability();

/**
 * A process's connection pool, as the store gets it, with what the store sends recorded: the NOTIFY payloads
 * (the database still receives every statement) and how many counts of the listeners have finished.
 */
function recorded(sql: Sql) {
  const notified: string[] = [];
  let counts = 0;
  const query: Sql['query'] = async (text, params) => {
    const result = await sql.query(text, params);
    if (text.includes('pg_notify')) notified.push(String(params?.[1]));
    if (text.includes('pg_stat_activity')) counts++;
    return result as never;
  };
  return {
    sql: { ...sql, query } satisfies Sql,
    /** NOTIFYs that announce an append (not a store's hello). */
    announced: () => notified.filter((payload) => !payload.endsWith(' hello')),
    hellos: () => notified.filter((payload) => payload.endsWith(' hello')).length,
    counts: () => counts,
  };
}

/** A subscription from the log's start that collects what it is handed. */
function collect(store: EventStore): { seen: RecordedEvent[]; subscription: Subscription } {
  const seen: RecordedEvent[] = [];
  const subscription = store.subscribeToAll({ onBatch: async (batch) => void seen.push(...batch.events) });
  return { seen, subscription };
}

/**
 * A NOTIFY per append is a statement per append; the one-process server on Postgres sent it with nobody to
 * hear it. Each "process" here is its own pool and store on one database, as separate processes would be.
 */
describe.skipIf(!gate.available)(
  `event-store NOTIFY only when another process listens${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    const pools: Sql[] = [];
    const stores: EventStore[] = [];
    const subscriptions: Subscription[] = [];
    const startProcess = async () => {
      const pool = createPgSql({ connectionString: db.url, max: 4, applicationName: 'kesher-notify-test' });
      pools.push(pool);
      const spy = recorded(pool);
      const store = await createSqlEventStore({ sql: spy.sql });
      stores.push(store);
      return { ...spy, store };
    };
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      for (const store of stores) await store.close();
      for (const pool of pools) await pool.close();
      await db?.drop();
    });

    it('a lone process announces nothing; a second one is announced to from the moment it listens; one that starts after it announces from its first append', async () => {
      // A: alone, listening (a subscription), and has counted the listeners after its own LISTEN.
      const a = await startProcess();
      const atA = collect(a.store);
      subscriptions.push(atA.subscription);
      await expect.poll(() => a.hellos() === 1 && a.counts() >= 1, { timeout: 15_000 }).toBe(true);
      for (let n = 1; n <= 10; n++) await a.store.appendToStream('note-a', [noted(n)], { expectedRevision: 'any' });
      await expect.poll(() => atA.seen.length, { timeout: 15_000 }).toBe(10);
      expect(a.announced()).toEqual([]);

      // B starts listening: its hello reaches A, whose appends are announced from then on and reach B.
      const b = await startProcess();
      const atB = collect(b.store);
      subscriptions.push(atB.subscription);
      await expect.poll(() => b.hellos(), { timeout: 15_000 }).toBe(1);
      let n = 10;
      await expect
        .poll(
          async () => {
            await a.store.appendToStream('note-a', [noted(++n)], { expectedRevision: 'any' });
            return a.announced().length > 0;
          },
          { timeout: 15_000, interval: 20 },
        )
        .toBe(true);
      await expect.poll(() => atB.seen.length, { timeout: 15_000 }).toBe(n);

      // C only appends (an API process): it does not know yet whether anyone listens, so it announces, and
      // its count finds A and B; its newest append is always among what it announced.
      const c = await startProcess();
      let last = '';
      for (let m = 1; m <= 3; m++) {
        const { position } = await c.store.appendToStream('note-c', [noted(100 + m)], { expectedRevision: 'any' });
        last = `${position.commit}:${position.prepare}`;
      }
      await expect.poll(() => c.announced().at(-1)?.endsWith(` ${last}`), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => atB.seen.length, { timeout: 15_000 }).toBe(n + 3);
      expect(c.counts()).toBeGreaterThanOrEqual(1);
      await c.store.appendToStream('note-c', [noted(104)], { expectedRevision: 'any' });
      await expect.poll(() => c.announced().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    });
  },
);
