import { describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { messageBusContract } from './testing/message-bus.contract.js';
import { createSqlBus } from './sql.bus.js';
import { createMetrics } from '../metrics/metrics.js';

/** The in-process bus on a given database; `restart` reopens it on the same tables. */
async function busOn(sql: Sql, release: () => Promise<void>) {
  const metrics = createMetrics();
  let bus = await createSqlBus({ sql, deliveries: { metrics } });
  return {
    bus,
    metrics,
    teardown: async () => {
      await bus.close();
      await sql.close();
      await release();
    },
    restart: async () => {
      await bus.close();
      bus = await createSqlBus({ sql, deliveries: { metrics } });
      return bus;
    },
  };
}

messageBusContract('in-process (PGlite, the embedded default)', async () =>
  busOn(await createTestPglite(), async () => {}),
);

messageBusContract(
  'in-process on Postgres',
  async () => {
    const db = await createTestDatabase();
    return busOn(createPgSql({ connectionString: db.url }), db.drop);
  },
  await postgresAvailability(),
);

const postgres = await postgresAvailability();

describe.skipIf(!postgres.available)(
  `in-process bus: what this process published${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    it("hands this process's publishes to its readers without reading them back, and still reads what another process published", async () => {
      const db = await createTestDatabase();
      const sql = createPgSql({ connectionString: db.url });
      const otherSql = createPgSql({ connectionString: db.url });
      let reads = 0;
      const counted: Sql = {
        ...sql,
        query: (text, params) => ((reads += text.includes('FROM bus_messages m') ? 1 : 0), sql.query(text, params)),
      };
      const bus = await createSqlBus({ sql: counted });
      // Another process on the same tables: its publishes wake nobody here.
      const other = await createSqlBus({ sql: otherSql });
      const seen: string[] = [];
      const consumer = await bus.consume({
        groupId: 'readers',
        topics: ['topic-a'],
        handler: async (message) => void seen.push(message.value),
      });
      try {
        await expect.poll(() => reads).toBeGreaterThan(0);
        const before = reads;
        for (let i = 0; i < 20; i++) {
          await bus.publish('topic-a', [{ key: `k${i % 3}`, value: `own-${i}` }]);
          await expect.poll(() => seen.length, { interval: 1 }).toBe(i + 1);
        }
        // Twenty publishes, taken as published: at most an idle poll or two read the table meanwhile.
        expect(reads - before).toBeLessThanOrEqual(3);

        await other.publish('topic-a', [{ key: 'k', value: 'theirs' }]);
        await bus.publish('topic-a', [{ key: 'k', value: 'own-after' }]);
        await expect.poll(() => seen.length).toBe(22);
        expect(seen.slice(20)).toEqual(['theirs', 'own-after']);
        expect(seen.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `own-${i}`));
      } finally {
        await consumer.stop();
        await bus.close();
        await other.close();
        await sql.close();
        await otherSql.close();
        await db.drop();
      }
    });

    it("still hands them over when other topics' publishes, from any process, take sequence numbers in between", async () => {
      const db = await createTestDatabase();
      const sql = createPgSql({ connectionString: db.url });
      const otherSql = createPgSql({ connectionString: db.url });
      let reads = 0;
      const counted: Sql = {
        ...sql,
        query: (text, params) => ((reads += text.includes('FROM bus_messages m') ? 1 : 0), sql.query(text, params)),
      };
      const bus = await createSqlBus({ sql: counted });
      const other = await createSqlBus({ sql: otherSql });
      const seen: string[] = [];
      const consumer = await bus.consume({
        groupId: 'readers',
        topics: ['topic-a'],
        handler: async (message) => void seen.push(message.value),
      });
      try {
        await expect.poll(() => reads).toBeGreaterThan(0);
        const before = reads;
        for (let i = 0; i < 20; i++) {
          // The sequence is shared by all topics: topic-a's messages are never numbered one after the other.
          await other.publish('topic-b', [{ key: 'k', value: `b-${i}` }]);
          await bus.publish('topic-a', [
            { key: `k${i % 3}`, value: `own-${i}` },
            { key: 'z', value: `own-${i}-z` },
          ]);
          await bus.publish('topic-c', [{ key: 'k', value: `c-${i}` }]);
          await expect.poll(() => seen.length, { interval: 1 }).toBe(2 * (i + 1));
        }
        expect(reads - before).toBeLessThanOrEqual(3);
        expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => [`own-${i}`, `own-${i}-z`]).flat());
      } finally {
        await consumer.stop();
        await bus.close();
        await other.close();
        await sql.close();
        await otherSql.close();
        await db.drop();
      }
    });
  },
);
