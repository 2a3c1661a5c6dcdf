import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Metrics } from '../../metrics/metrics.js';
import { EVENT_TYPE_HEADER } from '../event-types.js';
import type { Consumer, ConsumeOptions, DeliveredMessage, MessageBus, OutgoingMessage } from '../message-bus.port.js';

export interface MessageBusUnderTest {
  bus: MessageBus;
  /** Closes whichever bus is current (the one `restart` returned last, if it was called). */
  teardown: () => Promise<void>;
  /** Closes the bus and opens a new one on the same storage; the suite then uses the new one. */
  restart?: () => Promise<MessageBus>;
  /** The metrics the bus was given (`deliveries.metrics`), also after a restart. */
  metrics: Metrics;
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
  describe.skipIf(!gate.available)(
    `MessageBus contract: ${adapterName}${gate.available ? '' : ` (not run: ${gate.reason})`}`,
    () => {
      let bus: MessageBus;
      let teardown: () => Promise<void>;
      let restart: MessageBusUnderTest['restart'];
      let metrics: Metrics;
      const run = randomUUID().slice(0, 8);
      const topic = (name: string) => `contract-${run}-${name}`;
      const group = (name: string) => `contract-${run}-${name}`;
      let started: Consumer[] = [];

      beforeAll(async () => {
        ({ bus, teardown, restart, metrics } = await setup());
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
          {
            key: 'order-1',
            value: '{"a":1}',
            headers: { 'content-type': 'application/json', 'correlation-id': 'c-1' },
          },
          { key: 'order-2', value: '{"b":"ü"}', headers: { 'correlation-id': 'c-2' } },
          { key: 'order-1', value: '{"c":[1,2]}' },
        ]);
        const { seen } = await collect({ groupId: group('basic'), topics: [t] });

        await expect.poll(() => seen.length, within).toBe(3);
        const withoutPosition = seen.map(({ topic, key, value, headers }) => ({ topic, key, value, headers }));
        expect(withoutPosition).toEqual(
          expect.arrayContaining([
            {
              topic: t,
              key: 'order-1',
              value: '{"a":1}',
              headers: { 'content-type': 'application/json', 'correlation-id': 'c-1' },
            },
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
        await bus.publish(t, [
          ...range(10).map((i) => numbered('flaky', i)),
          ...range(5).map((i) => numbered('steady', i)),
        ]);
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
        await bus.publish(
          t,
          range(total).map((i) => numbered(`k${i % 3}`, i)),
        );

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

      it('parks a message whose handler failed maxAttempts times, with the reason, and goes on in order', async () => {
        const t = topic('park');
        await bus.publish(t, [...range(5).map((i) => numbered('p', i)), ...range(3).map((i) => numbered('q', i))]);
        const attempts: DeliveredMessage[] = [];
        const handled: DeliveredMessage[] = [];
        const parked: { message: DeliveredMessage; reason: string }[] = [];
        const poison = (message: DeliveredMessage) => message.key === 'p' && n(message) === 2;
        await consume({
          groupId: group('park'),
          topics: [t],
          maxAttempts: 3,
          handler: async (message) => {
            attempts.push(message);
            if (poison(message)) throw new Error(`cannot digest p/2 (try ${attempts.filter(poison).length})`);
            handled.push(message);
          },
          onParked: async (message, reason) => void parked.push({ message, reason }),
        });

        await expect.poll(() => byKey(handled, 'p'), within).toEqual([0, 1, 3, 4]);
        await expect.poll(() => byKey(handled, 'q'), within).toEqual([0, 1, 2]);
        // Three attempts, then parked, and only then the rest of its key.
        expect(byKey(attempts, 'p')).toEqual([0, 1, 2, 2, 2, 3, 4]);
        expect(parked).toHaveLength(1);
        expect(parked[0]!.message).toMatchObject({ key: 'p', value: JSON.stringify({ key: 'p', n: 2 }) });
        expect(parked[0]!.reason).toBe('cannot digest p/2 (try 3)');

        const letters = await bus.deadLetters({ groupId: group('park') });
        expect(letters).toHaveLength(1);
        expect(letters[0]).toMatchObject({
          groupId: group('park'),
          topic: t,
          key: 'p',
          value: JSON.stringify({ key: 'p', n: 2 }),
          headers: {},
          partition: parked[0]!.message.partition,
          offset: parked[0]!.message.offset,
          attempts: 3,
          reason: 'cannot digest p/2 (try 3)',
        });
        expect(Date.now() - letters[0]!.parkedAt.getTime()).toBeLessThan(60_000);
      });

      it('counts the attempts of a failing message across a restart', async (context) => {
        if (!restart) return context.skip('the adapter under test cannot be restarted');
        const t = topic('attempts-restart');
        await bus.publish(
          t,
          range(3).map((i) => numbered('x', i)),
        );
        const tries: number[] = [];
        const handled: number[] = [];
        const parked: string[] = [];
        const options = (tag: number): ConsumeOptions => ({
          groupId: group('attempts-restart'),
          topics: [t],
          maxAttempts: 4,
          handler: async (message) => {
            if (n(message) === 1) {
              tries.push(tag);
              throw new Error('always fails');
            }
            handled.push(n(message));
          },
          onParked: async (message) => void parked.push(message.offset),
        });
        await consume(options(1));
        await expect.poll(() => tries.length, within).toBeGreaterThanOrEqual(2);

        bus = await restart();
        started = [];
        const beforeRestart = tries.length;
        expect(beforeRestart).toBeLessThan(4);
        await consume(options(2));

        await expect.poll(() => parked.length, within).toBe(1);
        await expect.poll(() => handled.filter((i) => i === 2).length, within).toBeGreaterThanOrEqual(1);
        // Four in all, not four more after the restart.
        expect(tries).toHaveLength(4);
        expect(tries.filter((tag) => tag === 2)).toHaveLength(4 - beforeRestart);
        expect((await bus.deadLetters({ groupId: group('attempts-restart') }))[0]).toMatchObject({
          attempts: 4,
          reason: 'always fails',
        });
      });

      it('handles up to `concurrency` keys at once, each key in order', async () => {
        const t = topic('concurrency');
        await bus.publish(t, [
          ...range(6).map((i) => numbered(`k${i % 3}`, i)),
          ...range(2).map((i) => numbered('k3', 6 + i)),
        ]);
        let running = 0;
        let most = 0;
        const seen: DeliveredMessage[] = [];
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        await consume({
          groupId: group('concurrency'),
          topics: [t],
          concurrency: 3,
          handler: async (message) => {
            running++;
            most = Math.max(most, running);
            seen.push(message);
            await released;
            running--;
          },
        });

        await expect.poll(() => running, within).toBe(3);
        release();
        await expect.poll(() => seen.length, within).toBeGreaterThanOrEqual(8);
        expect(most).toBe(3);
        for (const key of ['k0', 'k1', 'k2'])
          expect(byKey(seen, key)).toEqual(range(6).filter((i) => `k${i % 3}` === key));
        expect(byKey(seen, 'k3')).toEqual([6, 7]);
      });

      it('gives a lane one slot: a lane with a backlog does not hold the others back', async () => {
        const t = topic('lanes');
        const inLane = (lane: string, key: string, i: number): OutgoingMessage => ({
          key,
          value: JSON.stringify({ key, n: i, lane }),
        });
        // Lane A: four slow messages (two of key a, two of a-other); lanes B and C: quick ones, published after.
        await bus.publish(t, [
          inLane('A', 'a', 0),
          inLane('A', 'a', 1),
          inLane('A', 'a-other', 2),
          inLane('A', 'a-other', 3),
        ]);
        await bus.publish(t, [inLane('B', 'b', 4), inLane('B', 'b', 5), inLane('C', 'c', 6)]);
        const laneOf = (message: DeliveredMessage) => (JSON.parse(message.value) as { lane: string }).lane;
        let runningInA = 0;
        let mostInA = 0;
        const finished: DeliveredMessage[] = [];
        let releaseA!: () => void;
        const aReleased = new Promise<void>((resolve) => (releaseA = resolve));
        await consume({
          groupId: group('lanes'),
          topics: [t],
          concurrency: 3,
          laneOf,
          handler: async (message) => {
            if (laneOf(message) === 'A') {
              runningInA++;
              mostInA = Math.max(mostInA, runningInA);
              await aReleased;
              runningInA--;
            }
            finished.push(message);
          },
        });

        // B and C are done while lane A's first message is still being handled.
        await expect.poll(() => finished.filter((m) => laneOf(m) !== 'A').length, within).toBe(3);
        expect(finished.filter((m) => laneOf(m) === 'A')).toEqual([]);
        expect(runningInA).toBe(1);
        expect(byKey(finished, 'b')).toEqual([4, 5]);
        releaseA();
        await expect.poll(() => finished.filter((m) => laneOf(m) === 'A').length, within).toBe(4);
        expect(mostInA).toBe(1);
        expect(byKey(finished, 'a')).toEqual([0, 1]);
        expect(byKey(finished, 'a-other')).toEqual([2, 3]);
      });

      it('never commits past a message still being handled, however many after it finished', async () => {
        const t = topic('lowest-unfinished');
        await bus.publish(
          t,
          range(6).map((i) => numbered(`k${i}`, i)),
        );
        let stopping = false;
        let releaseHeld!: () => void;
        const held = new Promise<void>((resolve) => (releaseHeld = resolve));
        const firstDone = new Set<number>();
        let holding = false;
        const first = await consume({
          groupId: group('lowest-unfinished'),
          topics: [t],
          concurrency: 2,
          handler: async (message) => {
            if (n(message) === 0) {
              holding = true;
              await held;
              // Stopped before it finished: it must come again.
              if (stopping) throw new Error('consumer is stopping');
            }
            firstDone.add(n(message));
          },
        });
        await expect.poll(() => holding && firstDone.size === 5, within).toBe(true);

        stopping = true;
        const stopped = first.stop();
        releaseHeld();
        await stopped;

        const second = await collect({ groupId: group('lowest-unfinished'), topics: [t] });
        await expect.poll(() => second.seen.map(n), within).toContain(0);
      });

      it('hands a consumer only the event types it declared, and commits past the others, also a fetch of nothing else', async () => {
        const t = topic('event-types');
        const g = group('event-types');
        // One key, so that everything is in one partition and in one order.
        const typed = (type: string | undefined, i: number): OutgoingMessage => ({
          key: 'k',
          value: JSON.stringify({ key: 'k', n: i }),
          headers: type ? { [EVENT_TYPE_HEADER]: type } : {},
        });
        const counted = async (outcome: 'handled' | 'skipped') =>
          (await metrics.busMessages.get()).values
            .filter((v) => v.labels.group === g && v.labels.outcome === outcome)
            .reduce((sum, v) => sum + v.value, 0);
        await bus.publish(t, [
          typed('Other', 0),
          typed('Other', 1),
          typed('Wanted', 2),
          typed('Other', 3),
          typed(undefined, 4),
          typed('AlsoWanted', 5),
          typed('Other', 6),
        ]);
        const laned: number[] = [];
        const first = await collect({
          groupId: g,
          topics: [t],
          eventTypes: ['Wanted', 'AlsoWanted'],
          laneOf: (message) => (laned.push(n(message)), message.key),
        });

        // A message without the header is handed over: only its handler can tell what it is.
        await expect.poll(() => first.seen.map(n), within).toEqual([2, 4, 5]);
        // The others never reached the consumer's code, not even its lane function.
        expect(laned).toEqual([2, 4, 5]);
        await expect.poll(() => counted('skipped'), within).toBeGreaterThanOrEqual(4);
        expect(await counted('handled')).toBeGreaterThanOrEqual(3);

        // A fetch that holds nothing this consumer handles must still move its offset.
        await bus.publish(
          t,
          range(30).map((i) => typed('Other', 10 + i)),
        );
        await expect.poll(() => counted('skipped'), within).toBeGreaterThanOrEqual(34);
        await first.consumer.stop();

        // The group resumes after everything skipped: an unfiltered consumer gets the next message alone.
        await bus.publish(t, [typed('Wanted', 99)]);
        const second = await collect({ groupId: g, topics: [t] });
        await expect.poll(() => second.seen.map(n), within).toContain(99);
        expect(second.seen.map(n)).toEqual([99]);
      });

      it('loses nothing when the bus is closed and reopened', async (context) => {
        if (!restart) return context.skip('the adapter under test cannot be restarted');
        const consumed = topic('restart-consumed');
        const unconsumed = topic('restart-unconsumed');
        const before = await collect({ groupId: group('restart'), topics: [consumed] });
        await bus.publish(
          consumed,
          range(10).map((i) => numbered('a', i)),
        );
        await bus.publish(
          unconsumed,
          range(10).map((i) => numbered('b', i)),
        );
        await expect.poll(() => before.seen.length, within).toBeGreaterThanOrEqual(10);

        bus = await restart();
        // close() stopped the old bus's consumers.
        started = [];
        await bus.publish(
          consumed,
          range(10).map((i) => numbered('a', 10 + i)),
        );
        const after = await collect({ groupId: group('restart'), topics: [consumed] });
        const late = await collect({ groupId: group('restart-late'), topics: [unconsumed] });

        await expect.poll(() => byKey(after.seen, 'a'), within).toEqual(range(10).map((i) => 10 + i));
        await expect.poll(() => byKey(late.seen, 'b'), within).toEqual(range(10));
        expect(byKey(before.seen, 'a')).toEqual(range(10));
      });
    },
  );
}
