import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaAvailability, kafkaBrokers, kafkaOutageAvailability, localKafka } from '../../testing/kafka.js';
import { createKafkaBus } from './kafka.bus.js';
import type { MessageBus } from './message-bus.port.js';

const openBus = () => createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-outage-test' });
const kafka = await kafkaAvailability();

// Outage tests stop the shared broker, so they run in their own pass, one file at a time, after the
// main suite (see vitest.config.ts and ops/test.sh).
const outage = kafka.available ? kafkaOutageAvailability() : kafka;

describe.skipIf(!outage.available)(
  `Kafka bus across a broker restart${outage.available ? '' : ` (not run: ${outage.reason})`}`,
  () => {
    let bus: MessageBus | undefined;

    afterAll(async () => {
      // Whatever happened above, leave a running broker behind for whoever comes next.
      await localKafka.start();
      await bus?.close();
    });

    it(
      'keeps publishing and consuming through a broker restart without losing a message',
      { timeout: 300_000 },
      async () => {
        bus = openBus();
        const topic = `outage-${randomUUID().slice(0, 8)}`;
        const received = new Set<number>();
        await bus.consume({
          groupId: `outage-${randomUUID().slice(0, 8)}`,
          topics: [topic],
          handler: async (message) => void received.add(Number(message.value)),
        });
        const publisher = startPublisher(bus, topic);
        const patiently = { timeout: 90_000, interval: 100 };

        await expect.poll(() => received.size, patiently).toBeGreaterThanOrEqual(20);
        await localKafka.stop();
        // Publishing must fail while the broker is away, not hang.
        await expect.poll(() => publisher.rejections.length, patiently).toBeGreaterThanOrEqual(1);
        expect(Math.max(...publisher.rejections)).toBeLessThan(30_000);

        await localKafka.start();
        const publishedAtRestart = publisher.published;
        await expect.poll(() => publisher.published, patiently).toBeGreaterThanOrEqual(publishedAtRestart + 20);
        await publisher.stop();

        const missing = () => Array.from({ length: publisher.published }, (_, i) => i).filter((i) => !received.has(i));
        await expect.poll(missing, patiently).toEqual([]);
      },
    );
  },
);

/**
 * Publishes 0, 1, 2, … one message at a time, each only after the previous one was acknowledged; a
 * rejected publish is retried (as an outbox relay would), so every number ends up published.
 */
function startPublisher(bus: MessageBus, topic: string) {
  const state = { published: 0, rejections: [] as number[], running: true };
  const done = (async () => {
    while (state.running) {
      const started = Date.now();
      try {
        await bus.publish(topic, [{ key: `k${state.published % 5}`, value: String(state.published) }]);
        state.published++;
      } catch {
        state.rejections.push(Date.now() - started);
        await sleep(250); // back-off between retries, not a wait for a condition
      }
    }
  })();
  return {
    get published() {
      return state.published;
    },
    rejections: state.rejections,
    async stop() {
      state.running = false;
      await done;
    },
  };
}
