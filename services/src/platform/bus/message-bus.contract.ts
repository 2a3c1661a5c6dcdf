import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Consumer, ConsumeOptions, DeliveredMessage, MessageBus, OutgoingMessage } from './message-bus.port.js';

export interface MessageBusUnderTest {
  bus: MessageBus;
  /** Closes whichever bus is current (the one `restart` returned last, if it was called). */
  teardown: () => Promise<void>;
  /** Closes the bus and opens a new one on the same storage; the suite then uses the new one. */
  restart?: () => Promise<MessageBus>;
}

/** How long a condition may take to become true; generous because a real broker may rebalance. */
const within = { timeout: 30_000, interval: 25 };

/**
 * The behaviour every MessageBus adapter must show (see message-bus.port.ts). Topics and groups are
 * unique to this run, so the suite can share a long-lived broker with other runs and test files.
 */
export function messageBusContract(
  adapterName: string,
  setup: () => Promise<MessageBusUnderTest>,
  gate = { available: true } as { available: boolean; reason?: string },
) {
  describe.skipIf(!gate.available)(`MessageBus contract: ${adapterName}${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
    let bus: MessageBus;
    let teardown: () => Promise<void>;
    let restart: MessageBusUnderTest['restart'];
    const run = randomUUID().slice(0, 8);
    const topic = (name: string) => `contract-${run}-${name}`;
    const group = (name: string) => `contract-${run}-${name}`;
    let started: Consumer[] = [];

    beforeAll(async () => {
      ({ bus, teardown, restart } = await setup());
    });
    afterEach(async () => {
      await Promise.all(started.map((consumer) => consumer.stop()));
      started = [];
    });
    afterAll(async () => {
      await teardown?.();
    });

    const consume = async (options: ConsumeOptions) => {
      const consumer = await bus.consume(options);
      started.push(consumer);
      return consumer;
    };

    /** Consumes into a list, in the order the handler saw the messages. */
    const collect = async (options: Omit<ConsumeOptions, 'handler'>) => {
      const seen: DeliveredMessage[] = [];
      const consumer = await consume({ ...options, handler: async (message) => void seen.push(message) });
      return { seen, consumer };
    };

    const numbered = (key: string, n: number): OutgoingMessage => ({ key, value: JSON.stringify({ key, n }) });
    const n = (message: DeliveredMessage) => (JSON.parse(message.value) as { n: number }).n;
    const byKey = (messages: DeliveredMessage[], key: string) => messages.filter((m) => m.key === key).map(n);
    const range = (count: number) => Array.from({ length: count }, (_, i) => i);

    it('delivers published messages with topic, key, value, headers, partition and offset', async () => {
      const t = topic('basic');
      await bus.publish(t, [
        { key: 'order-1', value: '{"a":1}', headers: { 'content-type': 'application/json', 'correlation-id': 'c-1' } },
        { key: 'order-2', value: '{"b":"ü"}', headers: { 'correlation-id': 'c-2' } },
        { key: 'order-1', value: '{"c":[1,2]}' },
      ]);
      const { seen } = await collect({ groupId: group('basic'), topics: [t] });

      await expect.poll(() => seen.length, within).toBe(3);
      const withoutPosition = seen.map(({ topic, key, value, headers }) => ({ topic, key, value, headers }));
      expect(withoutPosition).toEqual(
        expect.arrayContaining([
          { topic: t, key: 'order-1', value: '{"a":1}', headers: { 'content-type': 'application/json', 'correlation-id': 'c-1' } },
          { topic: t, key: 'order-2', value: '{"b":"ü"}', headers: { 'correlation-id': 'c-2' } },
          { topic: t, key: 'order-1', value: '{"c":[1,2]}', headers: {} },
        ]),
      );
      for (const message of seen) {
        expect(Number.isInteger(message.partition) && message.partition >= 0).toBe(true);
        expect(message.offset).toMatch(/^\d+$/);
      }
      expect(seen.filter((m) => m.key === 'order-1').map((m) => m.value)).toEqual(['{"a":1}', '{"c":[1,2]}']);
    });

    it('keeps the order per key across many interleaved keys', async () => {
      const t = topic('order');
      const keys = ['k0', 'k1', 'k2', 'k3', 'k4'];
      const interleaved = range(50).flatMap((i) => keys.map((key) => numbered(key, i)));
      for (let start = 0; start < interleaved.length; start += 25) {
        await bus.publish(t, interleaved.slice(start, start + 25));
      }
      const { seen } = await collect({ groupId: group('order'), topics: [t] });

      await expect.poll(() => seen.length, within).toBeGreaterThanOrEqual(interleaved.length);
      for (const key of keys) expect(byKey(seen, key)).toEqual(range(50));
    });

    it('delivers everything to each of two consumer groups', async () => {
      const t = topic('fan-out');
      const messages = range(20).map((i) => numbered(`k${i % 4}`, i));
      await bus.publish(t, messages);
      const first = await collect({ groupId: group('fan-out-a'), topics: [t] });
      const second = await collect({ groupId: group('fan-out-b'), topics: [t] });

      await expect.poll(() => first.seen.length, within).toBeGreaterThanOrEqual(20);
      await expect.poll(() => second.seen.length, within).toBeGreaterThanOrEqual(20);
      expect(new Set(first.seen.map(n))).toEqual(new Set(range(20)));
      expect(new Set(second.seen.map(n))).toEqual(new Set(range(20)));
    });

    it('redelivers a message whose handler threw, before any later message of its key', async () => {
      const t = topic('retry');
      await bus.publish(t, [...range(10).map((i) => numbered('flaky', i)), ...range(5).map((i) => numbered('steady', i))]);
      const attempts: DeliveredMessage[] = [];
      const handled: DeliveredMessage[] = [];
      await consume({
        groupId: group('retry'),
        topics: [t],
        handler: async (message) => {
          attempts.push(message);
          const failing = message.key === 'flaky' && n(message) === 3;
          if (failing && attempts.filter((a) => a.key === 'flaky' && n(a) === 3).length <= 2) {
            throw new Error('simulated handler failure');
          }
          handled.push(message);
        },
      });

      await expect.poll(() => byKey(handled, 'flaky').length, within).toBe(10);
      const tries = attempts.filter((a) => a.key === 'flaky' && n(a) === 3);
      expect(tries).toHaveLength(3);
      // The same message each time, not a copy published anew.
      expect(new Set(tries.map((a) => `${a.partition}/${a.offset}`)).size).toBe(1);
      // Nothing after the failing message was attempted before it finally succeeded.
      expect(byKey(attempts, 'flaky')).toEqual([0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 8, 9]);
      expect(byKey(handled, 'flaky')).toEqual(range(10));
      await expect.poll(() => byKey(handled, 'steady'), within).toEqual(range(5));
    });

    it('commits only handled messages: a new consumer of the group resumes where a stopped one left off', async () => {
      const t = topic('resume');
      const total = 40;
      const handledBeforeStop = 15;
      await bus.publish(t, range(total).map((i) => numbered(`k${i % 3}`, i)));

      // The first consumer acknowledges 15 messages, then holds the 16th in its handler while it is
      // asked to stop; once stopping, it refuses (throws on) anything else it is handed.
      const acknowledged = new Set<number>();
      let holding: number | undefined;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let stopRequested = false;
      const firstConsumer = await consume({
        groupId: group('resume'),
        topics: [t],
        handler: async (message) => {
          const i = n(message);
          if (stopRequested && i !== holding) throw new Error('consumer is stopping');
          if (acknowledged.size >= handledBeforeStop && holding === undefined) {
            holding = i;
            await released;
          } else if (i !== holding && holding !== undefined) {
            throw new Error('another message is being held');
          }
          acknowledged.add(i);
        },
      });
      await expect.poll(() => holding, within).toBeDefined();
      const acknowledgedBeforeStop = new Set(acknowledged);
      expect(acknowledgedBeforeStop.size).toBe(handledBeforeStop);

      stopRequested = true;
      const stopping = firstConsumer.stop();
      release();
      await stopping;

      const second = await collect({ groupId: group('resume'), topics: [t] });
      await expect.poll(() => new Set([...acknowledged, ...second.seen.map(n)]).size, within).toBe(total);
      // At least once: the held (in-flight) message may come again; acknowledged ones must not.
      expect(second.seen.map(n).filter((i) => acknowledgedBeforeStop.has(i))).toEqual([]);
    });

    it('loses nothing when the bus is closed and reopened', async (context) => {
      if (!restart) return context.skip('the adapter under test cannot be restarted');
      const consumed = topic('restart-consumed');
      const unconsumed = topic('restart-unconsumed');
      const before = await collect({ groupId: group('restart'), topics: [consumed] });
      await bus.publish(consumed, range(10).map((i) => numbered('a', i)));
      await bus.publish(unconsumed, range(10).map((i) => numbered('b', i)));
      await expect.poll(() => before.seen.length, within).toBeGreaterThanOrEqual(10);

      bus = await restart();
      // close() stopped the old bus's consumers.
      started = [];
      await bus.publish(consumed, range(10).map((i) => numbered('a', 10 + i)));
      const after = await collect({ groupId: group('restart'), topics: [consumed] });
      const late = await collect({ groupId: group('restart-late'), topics: [unconsumed] });

      await expect.poll(() => byKey(after.seen, 'a'), within).toEqual(range(10).map((i) => 10 + i));
      await expect.poll(() => byKey(late.seen, 'b'), within).toEqual(range(10));
      expect(byKey(before.seen, 'a')).toEqual(range(10));
    });
  });
}
