import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { eventStoreContract } from './testing/event-store.contract.js';
import { createSqlEventStore } from './sql-event-store.js';

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
