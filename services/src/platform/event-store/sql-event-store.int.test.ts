import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { eventStoreContract } from './testing/event-store.contract.js';
import type { Sql } from '../sql/sql.port.js';
import { StreamDeletedError } from './event-store.port.js';
import { createSqlEventStore } from './sql-event-store.js';
import { noted } from './testing/test-event.js';

eventStoreContract(
  'postgres',
  async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url, max: 25 });
    const store = await createSqlEventStore({ sql });
    return {
      store,
      teardown: async () => {
        await store.close();
        await sql.close();
        await db.drop();
      },
    };
  },
  await postgresAvailability(),
);

eventStoreContract('pglite (embedded)', async () => {
  const sql = await createTestPglite();
  const store = await createSqlEventStore({ sql });
  return {
    store,
    teardown: async () => {
      await store.close();
      await sql.close();
    },
  };
});

const pgGate = await postgresAvailability();
describe.skipIf(!pgGate.available)('Postgres event store: group commit', () => {
  it('fails only the append whose event id is a duplicate when appends share a batch', async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    // One batch in flight: everything else queues and travels together in the next batch.
    const store = await createSqlEventStore({ sql, maxConcurrentBatches: 1 });
    try {
      const event = (eventId = randomUUID()) => ({
        type: 'Noted',
        data: {},
        metadata: {
          eventId,
          correlationId: 'c',
          causationId: 'c',
          actor: { kind: 'system' as const, id: 't' },
          timestamp: new Date().toISOString(),
          schemaVersion: 1,
        },
      });
      const taken = randomUUID();
      await store.appendToStream('dup-0', [event(taken)], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled([
        store.appendToStream('dup-1', [event()], { expectedRevision: 'no_stream' }),
        store.appendToStream('dup-2', [event(taken)], { expectedRevision: 'no_stream' }),
        store.appendToStream('dup-3', [event()], { expectedRevision: 'no_stream' }),
        store.appendToStream('dup-1', [event()], { expectedRevision: 0n }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect(await store.readStream('dup-2')).toEqual([]);
      expect(await store.readStream('dup-1')).toHaveLength(2);
    } finally {
      await store.close();
      await sql.close();
      await db.drop();
    }
  });
});

/** Stream reads asked in one turn of the event loop share one statement; each still gets its own answer. */
const readBackends: [string, () => Promise<{ sql: Sql; teardown: () => Promise<void> }>][] = [
  [
    'PGlite',
    async () => {
      const sql = await createTestPglite();
      return { sql, teardown: () => sql.close() };
    },
  ],
];
if (pgGate.available)
  readBackends.push([
    'Postgres',
    async () => {
      const db = await createTestDatabase();
      const sql = createPgSql({ connectionString: db.url });
      return {
        sql,
        async teardown() {
          await sql.close();
          await db.drop();
        },
      };
    },
  ]);
for (const [backend, open] of readBackends) {
  describe(`${backend} event store: stream reads asked together`, () => {
    it('go to the database in one statement, each with its own page; a deleted stream fails alone', async () => {
      const { sql: inner, teardown } = await open();
      const sent: string[] = [];
      const sql: Sql = {
        ...inner,
        query: (text, params) => {
          sent.push(text);
          return inner.query(text, params);
        },
      };
      const store = await createSqlEventStore({ sql });
      try {
        await store.appendToStream('thread-a', [0, 1, 2, 3].map(noted), { expectedRevision: 'no_stream' });
        await store.appendToStream('assistant-b', [10, 11].map(noted), { expectedRevision: 'no_stream' });
        await store.appendToStream('gone-c', [20].map(noted), { expectedRevision: 'no_stream' });
        await store.deleteStream('gone-c', { expectedRevision: 0n });
        const numbers = (events: { data: unknown }[]) => events.map((e) => (e.data as { n: number }).n);

        sent.length = 0;
        const [whole, tail, page, other, missing, gone] = await Promise.allSettled([
          store.readStream('thread-a'),
          store.readStream('thread-a', { fromRevision: 2n }),
          store.readStream('thread-a', { fromRevision: 1n, maxCount: 2 }),
          store.readStream('assistant-b'),
          store.readStream('never-d'),
          store.readStream('gone-c'),
        ]);
        expect(sent.filter((text) => text.includes('FROM events'))).toHaveLength(1);
        expect(whole.status === 'fulfilled' && numbers(whole.value)).toEqual([0, 1, 2, 3]);
        expect(tail.status === 'fulfilled' && numbers(tail.value)).toEqual([2, 3]);
        expect(page.status === 'fulfilled' && numbers(page.value)).toEqual([1, 2]);
        expect(other.status === 'fulfilled' && numbers(other.value)).toEqual([10, 11]);
        expect(missing).toEqual({ status: 'fulfilled', value: [] });
        expect(gone.status === 'rejected' && gone.reason).toBeInstanceOf(StreamDeletedError);
        // A long stream read with others gives a page in the shared statement and the rest after, whole.
        await store.appendToStream(
          'assistant-long',
          Array.from({ length: 1234 }, (_, i) => noted(i)),
          { expectedRevision: 'no_stream' },
        );
        const [long, short] = await Promise.all([store.readStream('assistant-long'), store.readStream('thread-a')]);
        expect(numbers(long)).toEqual(Array.from({ length: 1234 }, (_, i) => i));
        expect(numbers(short)).toEqual([0, 1, 2, 3]);
        const [capped, rest] = await Promise.all([
          store.readStream('assistant-long', { fromRevision: 100n, maxCount: 600 }),
          store.readStream('assistant-long', { fromRevision: 1200n }),
        ]);
        expect(numbers(capped)).toEqual(Array.from({ length: 600 }, (_, i) => 100 + i));
        expect(numbers(rest)).toEqual(Array.from({ length: 34 }, (_, i) => 1200 + i));
        // A read alone is its own statement, as before.
        sent.length = 0;
        expect(numbers(await store.readStream('assistant-b', { fromRevision: 1n }))).toEqual([11]);
        expect(sent.filter((text) => text.includes('FROM events'))).toHaveLength(1);
      } finally {
        await store.close();
        await teardown();
      }
    });
  });
}
