import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { createKafkaBus } from './kafka.bus.js';
import type { DeliveredMessage, MessageBus } from './message-bus.port.js';

const kafka = await kafkaAvailability();
const range = (count: number) => Array.from({ length: count }, (_, i) => i);

/**
 * Right after a topic is created the broker may not know it yet when asked for its metadata
 * (UNKNOWN_TOPIC_OR_PARTITION) or have no leader for a partition yet (LEADER_NOT_AVAILABLE); and two
 * processes starting together create the same topics at once. The workers process used to exit at start
 * on a fresh broker so; creating a topic must wait that out, never fail on it.
 */
describe.skipIf(!kafka.available)(
  `Kafka bus: fresh topics${kafka.available ? '' : ` (not run: ${kafka.reason})`}`,
  () => {
    const buses: MessageBus[] = [];
    afterAll(async () => {
      await Promise.all(buses.map((bus) => bus.close()));
    });

    it(
      'two buses that create the same fresh topics at once can both publish and consume on them',
      { timeout: 120_000 },
      async () => {
        const run = randomUUID().slice(0, 8);
        const topics = range(12).map((i) => `fresh-${run}-${i}`);
        const perTopic = 12;
        const [a, b] = [
          createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-topics-test-a', partitions: 3 }),
          createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-topics-test-b', partitions: 3 }),
        ];
        buses.push(a, b);
        const seen: DeliveredMessage[] = [];
        const handler = async (message: DeliveredMessage) => void seen.push(message);

        // Every topic is first used by both buses at once: one to consume it, one to publish to it.
        await Promise.all(
          topics.flatMap((topic, i) => {
            const [consumer, publisher] = i % 2 === 0 ? [a, b] : [b, a];
            // Keys over every partition: a partition whose leader is not serving yet must not fail the
            // request (kafkajs would send it all again and write the other partitions' messages twice).
            return [
              consumer.consume({ groupId: `fresh-${run}-${i}`, topics: [topic], handler }),
              publisher.publish(
                topic,
                range(perTopic).map((n) => ({ key: `k${n}`, value: `${topic}/${n}` })),
              ),
            ];
          }),
        );

        await expect
          .poll(() => new Set(seen.map((message) => message.value)).size, { timeout: 60_000, interval: 50 })
          .toBe(topics.length * perTopic);
        // Each published once: no message is in its topic twice.
        const offsets = new Set(seen.map((message) => `${message.topic}/${message.partition}/${message.offset}`));
        expect(offsets.size).toBe(topics.length * perTopic);

        // Each topic exists once, with the bus's partitions, every one of them led.
        const admin = new Kafka({
          brokers: kafkaBrokers(),
          clientId: 'kesher-topics-test-check',
          logLevel: logLevel.NOTHING,
        }).admin();
        await admin.connect();
        try {
          const metadata = await admin.fetchTopicMetadata({ topics });
          for (const topic of metadata.topics) {
            expect(topic.partitions).toHaveLength(3);
            for (const partition of topic.partitions) expect(partition.leader).toBeGreaterThanOrEqual(0);
          }
        } finally {
          await admin.disconnect();
        }
      },
    );

    it(
      'writes each message of a first publish to fresh topics once, whichever partition it goes to',
      { timeout: 120_000 },
      async () => {
        const run = randomUUID().slice(0, 8);
        const topics = range(12).map((i) => `fresh-once-${run}-${i}`);
        const bus = createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-topics-test-once', partitions: 3 });
        buses.push(bus);
        const perTopic = 30;
        // A producer that is connected already sends the moment the topic is ready (the first publish would connect it first).
        await bus.publish(`fresh-once-${run}-warm-up`, [{ key: 'k', value: 'warm-up' }]);
        // One after the other, as a running process meets its topics.
        for (const topic of topics)
          await bus.publish(
            topic,
            range(perTopic).map((n) => ({ key: `k${n}`, value: `${n}` })),
          );

        // The log's end offsets: a request sent again after a partial failure would have written more.
        const admin = new Kafka({
          brokers: kafkaBrokers(),
          clientId: 'kesher-topics-test-check',
          logLevel: logLevel.NOTHING,
        }).admin();
        await admin.connect();
        try {
          for (const topic of topics) {
            const offsets = await admin.fetchTopicOffsets(topic);
            expect(
              offsets.reduce((sum, partition) => sum + Number(partition.high) - Number(partition.low), 0),
              topic,
            ).toBe(perTopic);
          }
        } finally {
          await admin.disconnect();
        }
      },
    );
  },
);
