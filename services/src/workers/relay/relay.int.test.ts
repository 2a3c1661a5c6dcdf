import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInbox } from '../../platform/bus/inbox.js';
import type { DeliveredMessage } from '../../platform/bus/message-bus.port.js';
import { createSqlBus } from '../../platform/bus/sql.bus.js';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createRelay } from './relay.js';
import { fromMessage } from '../../platform/bus/relayed-event.js';
import { createTestPglite } from '../../testing/test-database.js';

const event = (type: string, n: number): NewEvent => ({
  type,
  data: { n },
  metadata: {
    eventId: randomUUID(),
    correlationId: 'c',
    causationId: 'c',
    actor: { kind: 'system', id: 'relay-test' },
    timestamp: new Date().toISOString(),
    schemaVersion: 1,
  },
});

describe('relay on the embedded default (PGlite + in-process bus)', () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await createTestPglite();
  });
  afterAll(async () => sql.close());

  it('publishes every event to its category topic, keyed by stream, and resumes from its checkpoint', async () => {
    const store = await createSqlEventStore({ sql });
    const bus = await createSqlBus({ sql });
    const received: DeliveredMessage[] = [];
    const consumer = await bus.consume({
      groupId: 'test',
      topics: ['kesher.order', 'kesher.shop'],
      handler: async (m) => void received.push(m),
    });

    for (let i = 0; i < 5; i++)
      await store.appendToStream('order-1', [event('OrderNoted', i)], { expectedRevision: 'any' });
    await store.appendToStream('shop-9', [event('ShopNoted', 0)], { expectedRevision: 'any' });

    const relay = createRelay({ eventStore: store, bus, sql });
    await relay.start();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(6);
    await relay.stop();

    // Written while the relay is down: delivered after restart, and nothing before is sent twice.
    const last = await store.appendToStream('order-1', [event('OrderNoted', 5)], { expectedRevision: 'any' });
    const restarted = createRelay({ eventStore: store, bus, sql });
    await restarted.start();
    expect(await restarted.waitForPosition(last.position)).toBe(true);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(7);
    await restarted.stop();
    await consumer.stop();

    const orders = received.filter((m) => m.topic === 'kesher.order');
    expect(orders.every((m) => m.key === 'order-1')).toBe(true);
    expect(orders.map((m) => (fromMessage(m).data as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(received.find((m) => m.topic === 'kesher.shop')?.headers['event-type']).toBe('ShopNoted');
    expect(new Set(received.map((m) => m.headers['event-id'])).size).toBe(7);
  });

  it('with a batching delay, hands a moment of appends to the bus in one publish, at once for whoever waits', async () => {
    const store = await createSqlEventStore({ sql });
    const inner = await createSqlBus({ sql });
    const publishes: number[] = [];
    const bus: typeof inner = {
      ...inner,
      publish: (topic, messages) => {
        publishes.push(messages.length);
        return inner.publish(topic, messages);
      },
    };
    // A delay far longer than the test: only the wait below (which hurries it) can end it.
    const relay = createRelay({ eventStore: store, bus, sql, name: 'relay-batched', batchDelayMs: 3_600_000 });
    await relay.start();
    // Caught up with what the tests before wrote (a catch-up is read at once), then quiet.
    expect(await relay.waitForPosition(await store.headPosition())).toBe(true);
    publishes.length = 0;
    let last;
    for (let i = 0; i < 5; i++)
      last = await store.appendToStream('batch-1', [event('BatchNoted', i)], { expectedRevision: 'any' });
    expect(publishes).toEqual([]);
    expect(await relay.waitForPosition(last!.position)).toBe(true);
    expect(publishes).toEqual([5]);
    await relay.stop();
  });

  it('lets a consumer drop a redelivered event by its id', async () => {
    const once = await createInbox({ sql, consumer: 'counter' });
    await sql.exec(`CREATE TABLE IF NOT EXISTS counted (n int)`);
    const id = randomUUID();
    expect(await once(id, (tx) => tx.query(`INSERT INTO counted VALUES (1)`).then(() => undefined))).toBe(true);
    expect(await once(id, (tx) => tx.query(`INSERT INTO counted VALUES (1)`).then(() => undefined))).toBe(false);
    const { rows } = await sql.query<{ c: number }>(`SELECT count(*)::int AS c FROM counted`);
    expect(rows[0]!.c).toBe(1);
  });
});
