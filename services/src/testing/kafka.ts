import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { gateService, type ServiceAvailability } from './service-gate.js';

/** The Kafka the tests use: KAFKA_BROKERS (comma separated), else the local broker of ops/kafka/start.sh. */
export function kafkaBrokers(): string[] {
  const configured = process.env.KAFKA_BROKERS?.split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  return configured?.length ? configured : ['127.0.0.1:9092'];
}

const probeTimeoutMs = 5_000;

export async function kafkaAvailability(): Promise<ServiceAvailability> {
  return gateService('Kafka', async () => {
    // No retries: kafkajs would otherwise keep a missing broker "pending" for half a minute.
    const kafka = new Kafka({
      clientId: 'kesher-test-probe',
      brokers: kafkaBrokers(),
      logLevel: logLevel.NOTHING,
      connectionTimeout: 2_000,
      requestTimeout: 3_000,
      retry: { retries: 0 },
    });
    const admin = kafka.admin();
    try {
      await withTimeout(
        admin.connect().then(() => admin.listTopics()),
        probeTimeoutMs,
        `no answer within ${probeTimeoutMs} ms`,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${reason} (brokers ${kafkaBrokers().join(',')}; start one with ops/kafka/start.sh)`);
    } finally {
      await admin.disconnect().catch(() => {});
    }
  });
}

/**
 * Waits until a consumer group has read every message its topics held when this was called. A group met
 * for the first time starts at the beginning of its topics, and the topics (`kesher.<category>`) are
 * shared by every database on the broker: a test whose runs have a short deadline waits for its new
 * group to get past the others' messages first.
 */
export async function groupCaughtUp(groupId: string, topics: string[], { timeoutMs = 60_000 } = {}) {
  const kafka = new Kafka({ clientId: 'kesher-test-lag', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    // What each partition held (from its oldest kept message to its end); an empty one needs no reading.
    const held = new Map<string, { low: bigint; high: bigint }>();
    for (const topic of topics) {
      for (const { partition, low, high } of await admin.fetchTopicOffsets(topic))
        held.set(`${topic}/${partition}`, { low: BigInt(low), high: BigInt(high) });
    }
    // A partition the group has committed nothing on reads -1.
    const isBehind = (key: string, offset: string) => {
      const range = held.get(key);
      return range !== undefined && range.high > (BigInt(offset) > range.low ? BigInt(offset) : range.low);
    };
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const committed = await admin.fetchOffsets({ groupId, topics });
      const behind = committed.flatMap(({ topic, partitions }) =>
        partitions
          .filter(({ partition, offset }) => isBehind(`${topic}/${partition}`, offset))
          .map(({ partition }) => `${topic}/${partition}`),
      );
      if (behind.length === 0) return;
      if (Date.now() > deadline)
        throw new Error(`consumer group ${groupId} still behind on ${behind.join(', ')} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The broker that ops/kafka/start.sh runs on this machine. Tests that stop and restart a broker may only
 * do so with this one: they own it, and its scripts know how to bring it back.
 */
export const localKafka = {
  pidFile: () => join(process.env.KESHER_CACHE_DIR ?? join(homedir(), '.cache', 'kesher'), 'kafka', 'kafka.pid'),
  start: () => runScript('start.sh'),
  stop: () => runScript('stop.sh'),
};

/** Whether a test may stop and restart the broker; set KESHER_KAFKA_OUTAGE_TESTS=0 to never do so. */
export function kafkaOutageAvailability(): ServiceAvailability {
  const unavailable = (reason: string) => {
    console.warn(`\n!!! Kafka outage tests are NOT RUN: ${reason}\n`);
    return { available: false, reason };
  };
  if (process.env.KESHER_KAFKA_OUTAGE_TESTS === '0') return unavailable('KESHER_KAFKA_OUTAGE_TESTS=0');
  if (kafkaBrokers().join(',') !== '127.0.0.1:9092') return unavailable(`KAFKA_BROKERS is not the local broker`);
  if (!existsSync(localKafka.pidFile())) {
    return unavailable(`the broker was not started by ops/kafka/start.sh (no ${localKafka.pidFile()})`);
  }
  return { available: true };
}

async function runScript(name: string) {
  const script = fileURLToPath(new URL(`../../../ops/kafka/${name}`, import.meta.url));
  const { stdout } = await promisify(execFile)(script, { timeout: 180_000 });
  return stdout;
}
