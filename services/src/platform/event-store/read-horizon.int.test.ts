import pg from 'pg';
import { comparePositions, START_POSITION, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createProjectionRunner } from '../projections/projection-runner.js';
import { readModelWaiter } from '../projections/read-model-progress.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import type { EventStore } from './event-store.port.js';
import { createSqlEventStore } from './sql-event-store.js';
import { noted, rawAppend } from './testing/test-event.js';

const gate = await postgresAvailability();

const notedModel: Projection = {
  name: 'noted_horizon',
  version: 1,
  eventTypes: ['Noted'],
  tables: ['noted_horizon'],
  migrations: [{ id: '001-noted', sql: `CREATE TABLE IF NOT EXISTS noted_horizon (n int PRIMARY KEY)` }],
  async apply(db, events: readonly RecordedEvent[]) {
    for (const e of events) await db.query(`INSERT INTO noted_horizon (n) VALUES ($1)`, [(e.data as { n: number }).n]);
  },
};

/** Every event readAll returns from the start, page by page, up to the end it sees now. */
async function readEverything(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let after: AllPosition = START_POSITION;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 100 });
    all.push(...batch.events);
    after = batch.next;
    if (batch.atEnd) return all;
  }
}

/**
 * A connection holding an open transaction in the database at `url` that has taken an xid: by `first`
 * (a write), or by asking for one.
 */
async function openTransaction(url: string, first?: { text: string; values?: unknown[] }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  if (first) await client.query(first.text, first.values);
  const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  return {
    xid: BigInt(rows[0]!.xid),
    client,
    end: async (sql = 'ROLLBACK') => (await client.query(sql), await client.end()),
  };
}

/** One append of one `Noted` event through the store's own function, as the batcher sends it. */
const appendStatement = (streamId: string, n: number) => rawAppend(streamId, noted(n));

/**
 * The read horizon is Kesher's own: a transaction left open in ANOTHER database of the same server (another
 * tenant, an analyst, a parallel test file) shares the server's xids but cannot append to this `events`,
 * so it must not hold readers back. Before, an acknowledged append stayed invisible until it ended,
 * `headPosition()` named an older event, and a wait for that head returned while the read model lacked it.
 */
describe.skipIf(!gate.available)(
  `read horizon on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let other: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      other = await createTestDatabase('kesher_scratch', { empty: true });
      sql = createPgSql({ connectionString: db.url, max: 6 });
      store = await createSqlEventStore({ sql });
    });
    afterAll(async () => {
      await store?.close();
      await sql?.close();
      await db?.drop();
      await other?.drop();
    });

    it('an open transaction in another database does not hold back reads, the head, subscriptions or a read-model wait', async () => {
      const elsewhere = await openTransaction(other.url);
      const runner = createProjectionRunner({ eventStore: store, sql, projections: [notedModel] });
      try {
        const appended = await store.appendToStream('note-x', [noted(1)], { expectedRevision: 'no_stream' });
        // The append is newer than the open transaction: only a cluster-wide horizon would hide it.
        expect(appended.position.commit).toBeGreaterThan(elsewhere.xid);

        expect((await readEverything(store)).map((e) => e.data)).toEqual([{ n: 1 }]);
        expect(await store.headPosition()).toEqual(appended.position);

        const seen: RecordedEvent[] = [];
        let sawIt!: () => void;
        const arrived = new Promise<void>((resolve) => (sawIt = resolve));
        const subscription = store.subscribeToAll({
          onBatch: async (batch) => {
            seen.push(...batch.events);
            if (seen.length > 0) sawIt();
          },
        });
        await arrived;
        await subscription.stop();
        expect(seen.map((e) => e.data)).toEqual([{ n: 1 }]);

        await runner.start();
        const awaitReadModels = readModelWaiter({
          readModels: runner.progress,
          projections: [notedModel],
          timeoutMs: 30_000,
        });
        const second = await store.appendToStream('note-x', [noted(2)], { expectedRevision: 0n });
        expect(await awaitReadModels(second.position, ['Noted'])).toBe(true);
        expect((await sql.query<{ n: number }>(`SELECT n FROM noted_horizon ORDER BY n`)).rows.map((r) => r.n)).toEqual(
          [1, 2],
        );
        // The head names the newest committed event, and a wait for it finds the read model with it.
        const head = await store.headPosition();
        expect(head).toEqual(second.position);
        expect(await awaitReadModels(head)).toBe(true);
      } finally {
        await runner.stop();
        await elsewhere.end();
      }
    });

    it('a transaction of THIS database in the middle of an append holds readers back, and its late events are not skipped', async () => {
      // An appender that took its xid first (its events are written, not committed), while a younger
      // append commits: a reader that went past the younger one's events without it would never see its own.
      const older = await openTransaction(db.url, appendStatement('note-z', 11));
      try {
        const before = await readEverything(store);
        const younger = await store.appendToStream('note-y', [noted(10)], { expectedRevision: 'no_stream' });
        expect(younger.position.commit).toBeGreaterThan(older.xid);
        // Not readable yet (the older writer's events sort below it), but the head already names it.
        expect(await readEverything(store)).toHaveLength(before.length);
        expect(comparePositions(await store.headPosition(), younger.position)).toBe(0);

        await older.end('COMMIT');
        const after = (await readEverything(store)).slice(before.length);
        expect(after.map((e) => e.data)).toEqual([{ n: 11 }, { n: 10 }]);
      } finally {
        if (!older.client.connection.stream.destroyed) await older.end().catch(() => {});
      }
    });

    it('a transaction of THIS database that writes elsewhere (a read model) does not hold readers back, and may not append', async () => {
      // The projector's transactions write read models all the time: each one used to hold back every
      // reader (the relay handing a chat turn to its worker included) until it committed.
      await sql.query(`CREATE TABLE IF NOT EXISTS horizon_read_model (n int)`);
      const projecting = await openTransaction(db.url, { text: `INSERT INTO horizon_read_model VALUES (1)` });
      try {
        const before = await readEverything(store);
        const appended = await store.appendToStream('note-w', [noted(20)], { expectedRevision: 'no_stream' });
        expect(appended.position.commit).toBeGreaterThan(projecting.xid);
        expect((await readEverything(store)).slice(before.length).map((e) => e.data)).toEqual([{ n: 20 }]);

        // The rule that makes this sound: it cannot append now, since its xid predates any lock on the log.
        const { text, values } = appendStatement('note-v', 21);
        await expect(projecting.client.query(text, values)).rejects.toMatchObject({ code: 'KE001' });
      } finally {
        await projecting.end();
      }
      const { rows } = await sql.query(`SELECT 1 FROM streams WHERE stream_id = 'note-v'`);
      expect(rows).toEqual([]);
    });
  },
);
