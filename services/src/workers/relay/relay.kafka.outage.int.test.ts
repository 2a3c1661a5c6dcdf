import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInbox } from '../../platform/bus/inbox.js';
import { createKafkaBus } from '../../platform/bus/kafka.bus.js';
import type { MessageBus } from '../../platform/bus/message-bus.port.js';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { kafkaAvailability, kafkaBrokers, kafkaOutageAvailability, localKafka } from '../../testing/kafka.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createRelay } from './relay.js';
import { fromMessage } from '../../platform/bus/relayed-event.js';

const pg = await postgresAvailability();
const kafka = pg.available ? await kafkaAvailability() : pg;
const gate = kafka.available ? kafkaOutageAvailability() : kafka;

const event = (n: number): NewEvent => ({
  type: 'OrderNoted',
  data: { n },
  metadata: {
    eventId: randomUUID(),
    correlationId: 'c',
    causationId: 'c',
    actor: { kind: 'system', id: 'outage-test' },
    timestamp: new Date().toISOString(),
    schemaVersion: 1,
  },
});

describe.skipIf(!gate.available)(
  `relay → Kafka → read model across a broker restart${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    let bus: MessageBus;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url });
      store = await createSqlEventStore({ sql });
      bus = createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-relay-outage' });
    });
    afterAll(async () => {
      await localKafka.start();
      await bus?.close();
      await store?.close();
      await sql?.close();
      await db?.drop();
    });

    it('loses no event and applies none twice', { timeout: 300_000 }, async () => {
      const category = `outage${randomUUID().slice(0, 8)}`;
      // A Kafka-fed read model: each delivery goes through the inbox, so a redelivered event is skipped.
      await sql.exec(`CREATE TABLE applied (event_id text PRIMARY KEY, n int NOT NULL, times int NOT NULL)`);
      const once = await createInbox({ sql, consumer: 'applied-model' });
      let deliveries = 0;
      const consumer = await bus.consume({
        groupId: `read-model-${category}`,
        topics: [`kesher.${category}`],
        handler: async (message) => {
          deliveries++;
          const e = fromMessage(message);
          await once(e.metadata.eventId, async (tx) => {
            await tx.query(
              `INSERT INTO applied (event_id, n, times) VALUES ($1, $2, 1) ON CONFLICT (event_id) DO UPDATE SET times = applied.times + 1`,
              [e.metadata.eventId, (e.data as { n: number }).n],
            );
          });
        },
      });
      const relay = createRelay({ eventStore: store, bus, sql, batchSize: 20, retryDelayMs: 200 });
      await relay.start();

      // Keep appending throughout: before, during and after the outage.
      let appended = 0;
      let writing = true;
      const writer = (async () => {
        while (writing) {
          await store.appendToStream(`${category}-${appended % 7}`, [event(appended)], { expectedRevision: 'any' });
          appended++;
          await new Promise((resolve) => setTimeout(resolve, 20)); // a steady trickle of commands
        }
      })();
      const count = async () =>
        Number((await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM applied`)).rows[0]!.n);
      const patiently = { timeout: 120_000, interval: 200 };

      await expect.poll(count, patiently).toBeGreaterThanOrEqual(30);
      await localKafka.stop();
      const appendedDuringOutageFrom = appended;
      await expect.poll(() => appended, patiently).toBeGreaterThanOrEqual(appendedDuringOutageFrom + 50);
      await localKafka.start();
      await expect.poll(() => appended, patiently).toBeGreaterThanOrEqual(appendedDuringOutageFrom + 100);
      writing = false;
      await writer;

      await expect.poll(count, patiently).toBe(appended);
      const { rows } = await sql.query<{ n: number; times: number }>(`SELECT n, times FROM applied ORDER BY n`);
      expect(rows.map((r) => r.n)).toEqual(Array.from({ length: appended }, (_, i) => i));
      expect(rows.every((r) => r.times === 1)).toBe(true);
      console.log(`relay outage: ${appended} events appended, ${deliveries} deliveries, each applied exactly once`);
      await relay.stop();
      await consumer.stop();
    });
  },
);
