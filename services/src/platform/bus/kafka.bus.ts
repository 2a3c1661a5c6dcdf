import { setTimeout as sleep } from 'node:timers/promises';
import {
  Kafka,
  Partitioners,
  logLevel as KafkaLogLevel,
  type Admin,
  type Consumer as KafkaConsumer,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type RetryOptions,
} from 'kafkajs';
import type { ConsumeOptions, Consumer, DeliveredMessage, MessageBus, OutgoingMessage } from './message-bus.port.js';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions of the topics this bus creates. */
  partitions?: number;
  /** Batches of each consumer handled at the same time; each partition is still handled in order. */
  partitionsConsumedConcurrently?: number;
  /**
   * How long the group waits for a silent member before moving its partitions. kafkajs heartbeats only
   * between messages, so a handler that runs longer than this loses its partition (and the message is
   * redelivered). Also how long a consumer takes to get its partitions back after a broker restart
   * that it could not leave the group through. Default 10 s (the broker's minimum is 6 s).
   */
  sessionTimeoutMs?: number;
  /** How long consume() waits for its consumer to join the group before it gives up. */
  joinTimeoutMs?: number;
  /**
   * A publish that is not acknowledged within this time rejects (default 20 s). kafkajs' own retries end
   * sooner when the broker refuses connections, but a broker that accepts and then hangs would keep a
   * publish waiting for minutes. The abandoned send may still land later: a caller that publishes the
   * messages again may cause duplicates, which at-least-once delivery allows.
   */
  publishTimeoutMs?: number;
  /** kafkajs' own logging; errors only by default. */
  logLevel?: KafkaLogLevel;
  /** Told about every failed handler attempt; the message is retried after `retryInMs`. */
  onHandlerError?: (error: unknown, message: DeliveredMessage, attempt: number, retryInMs: number) => void;
}

/**
 * kafkajs retries each request with a growing back-off (about 15 s in all). Bounded so that, with the
 * broker gone, a publish rejects instead of hanging, while a broker restart of a few seconds is bridged
 * without the caller noticing.
 */
const clientRetry: RetryOptions = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 5 };

const handlerBackoff = { initialMs: 100, maxMs: 5_000 };

export function createKafkaBus(options: KafkaBusOptions): MessageBus {
  const kafka = new Kafka({
    brokers: options.brokers,
    clientId: options.clientId ?? 'kesher',
    logLevel: options.logLevel ?? KafkaLogLevel.ERROR,
    connectionTimeout: 3_000,
    requestTimeout: 10_000,
    retry: clientRetry,
  });
  const topics = createTopicRegistry(kafka.admin(), options.partitions ?? 3);
  // Not idempotent: kafkajs' idempotent producer insists on unlimited retries, which would make a
  // publish hang while the broker is down. One request in flight keeps retries from reordering a key.
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    maxInFlightRequests: 1,
  });
  const connectProducer = once(() => producer.connect());
  const consumers = new Set<Consumer>();

  return {
    name: 'kafka',

    async publish(topic, messages) {
      if (messages.length === 0) return;
      const send = async () => {
        await topics.ensure([topic]);
        await connectProducer();
        await producer.send({ topic, acks: -1, messages: messages.map(toKafkaMessage) });
      };
      const timeoutMs = options.publishTimeoutMs ?? 20_000;
      await withDeadline(send(), timeoutMs, () => new Error(`publish to ${topic} was not acknowledged within ${timeoutMs} ms`));
    },

    async consume(consumeOptions) {
      await topics.ensure(consumeOptions.topics);
      const consumer = await startGroupConsumer(kafka, consumeOptions, options);
      const tracked: Consumer = {
        async stop() {
          consumers.delete(tracked);
          await consumer.stop();
        },
      };
      consumers.add(tracked);
      return tracked;
    },

    async close() {
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
      await Promise.all([producer.disconnect(), topics.close()]);
    },
  };
}

function toKafkaMessage(message: OutgoingMessage) {
  return { key: message.key, value: message.value, headers: message.headers ?? {} };
}

/**
 * Creates topics before they are used: a consumer subscribed to a topic that does not exist yet does not
 * see it appear (kafkajs only refreshes metadata for topics it knows), and broker-side auto-creation would
 * ignore the partition count. Topics known to exist are remembered, so this costs a request or two per
 * topic and bus. Existence is checked first because kafkajs logs a refused creation as an error.
 */
function createTopicRegistry(admin: Admin, numPartitions: number) {
  const ready = new Map<string, Promise<void>>();
  const connect = once(() => admin.connect());

  const create = async (topic: string) => {
    await connect();
    if ((await admin.listTopics()).includes(topic)) return;
    // Returns false, without failing, when another client created the topic meanwhile.
    await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
  };

  return {
    async ensure(topics: readonly string[]) {
      await Promise.all(
        topics.map((topic) => {
          let creation = ready.get(topic);
          if (!creation) {
            creation = create(topic);
            // A failed attempt (broker down) must not be remembered: the next use tries again.
            creation.catch(() => ready.delete(topic));
            ready.set(topic, creation);
          }
          return creation;
        }),
      );
    },
    close: () => admin.disconnect(),
  };
}

/**
 * A kafkajs consumer restarts itself after most failures, but not after errors it classes as not
 * retriable (a missing group coordinator while the broker restarts is one). This supervisor replaces a
 * consumer that gave up with a new one, so a subscription survives any broker outage.
 */
async function startGroupConsumer(kafka: Kafka, consume: ConsumeOptions, options: KafkaBusOptions) {
  let stopped = false;
  let current: KafkaConsumer | undefined;
  let replacing: Promise<void> | undefined;
  // Set again when a replacement gives up while it is still starting, so the loop below goes on.
  let needsReplacement = false;

  const onGaveUp = () => {
    needsReplacement = true;
    if (!stopped) replacing ??= replace().finally(() => (replacing = undefined));
  };

  const launch = async (consumer = createConsumer(kafka, consume.groupId, options, onGaveUp)) => {
    current = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: [...consume.topics], fromBeginning: consume.fromBeginning ?? true });
    await consumer.run({
      eachBatchAutoResolve: false,
      // Resolved offsets are committed at the end of each batch anyway; this bounds how much a long
      // batch would redeliver after a crash.
      autoCommitInterval: 1_000,
      partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
      eachBatch: (payload) => handleBatch(payload, consume.handler, options.onHandlerError ?? logHandlerError),
    });
  };

  const replace = async () => {
    for (let attempt = 1; needsReplacement && !stopped; attempt++) {
      needsReplacement = false;
      await sleep(backoffMs(attempt));
      if (stopped) return;
      try {
        await launch();
      } catch {
        needsReplacement = true;
        await current?.disconnect().catch(() => {});
      }
    }
  };

  // The first start waits for the group join, so that a caller knows the subscription is live (and
  // learns about it if it cannot be).
  try {
    const consumer = createConsumer(kafka, consume.groupId, options, onGaveUp);
    const joined = firstJoin(consumer, options.joinTimeoutMs ?? 30_000);
    joined.catch(() => {});
    await launch(consumer);
    await joined;
  } catch (error) {
    stopped = true;
    await current?.disconnect().catch(() => {});
    throw error;
  }

  return {
    async stop() {
      stopped = true;
      await replacing;
      await current?.disconnect();
    },
  };
}

function createConsumer(kafka: Kafka, groupId: string, options: KafkaBusOptions, onGaveUp: () => void) {
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: options.sessionTimeoutMs ?? 10_000,
    allowAutoTopicCreation: false,
    // The broker answers a fetch as soon as data arrives; a short wait only makes stop() quicker.
    maxWaitTimeInMs: 1_000,
    retry: { ...clientRetry, restartOnFailure: async () => true },
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) onGaveUp();
  });
  return consumer;
}

function firstJoin(consumer: KafkaConsumer, timeoutMs: number) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      done();
      reject(new Error(`consumer did not join its group within ${timeoutMs} ms`));
    }, timeoutMs);
    const removeJoin = consumer.on(consumer.events.GROUP_JOIN, () => {
      done();
      resolve();
    });
    const removeCrash = consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart) return;
      done();
      reject(payload.error);
    });
    function done() {
      clearTimeout(timer);
      removeJoin();
      removeCrash();
    }
  });
}

/**
 * Handles a partition's batch strictly in order. An offset is resolved only after its handler resolved;
 * a failing message is retried here, in place, so nothing behind it in the partition is handled first
 * and nothing is skipped. Leaving the loop without resolving (stop, rebalance) means the unresolved
 * messages are fetched again by whoever owns the partition next.
 */
async function handleBatch(
  payload: EachBatchPayload,
  handler: ConsumeOptions['handler'],
  onHandlerError: NonNullable<KafkaBusOptions['onHandlerError']>,
) {
  const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, uncommittedOffsets, isRunning, isStale } = payload;
  const active = () => isRunning() && !isStale();
  for (const message of batch.messages) {
    if (!active()) return;
    const delivered = toDelivered(batch.topic, batch.partition, message);
    for (let attempt = 1; ; attempt++) {
      try {
        await handler(delivered);
        break;
      } catch (error) {
        // What was handled before the failure must not be handled again if this process goes away.
        if (attempt === 1) await commitOffsetsIfNecessary(uncommittedOffsets());
        const retryInMs = backoffMs(attempt);
        onHandlerError(error, delivered, attempt, retryInMs);
        if (!(await waitWhile(active, retryInMs, heartbeat))) return;
      }
    }
    resolveOffset(message.offset);
    await commitOffsetsIfNecessary();
    await heartbeat();
  }
}

/** Waits `ms`, heartbeating so the group keeps the partition; false if the consumer stopped meanwhile. */
async function waitWhile(active: () => boolean, ms: number, heartbeat: () => Promise<void>) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!active()) return false;
    await sleep(Math.min(200, until - Date.now()));
    await heartbeat();
  }
  return active();
}

function backoffMs(attempt: number) {
  return Math.min(handlerBackoff.maxMs, handlerBackoff.initialMs * 2 ** (attempt - 1));
}

function toDelivered(topic: string, partition: number, message: KafkaMessage): DeliveredMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? '',
    value: message.value?.toString('utf8') ?? '',
    headers: toHeaders(message.headers),
  };
}

function toHeaders(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    // Kafka allows a header name to repeat; the port has one value per name, so the last one wins.
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last !== undefined) result[name] = last.toString();
  }
  return result;
}

function logHandlerError(error: unknown, message: DeliveredMessage, attempt: number, retryInMs: number) {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(
    `kafka bus: handler failed on ${message.topic}[${message.partition}]@${message.offset} (attempt ${attempt}), retrying in ${retryInMs} ms: ${reason}`,
  );
}

async function withDeadline(work: Promise<void>, ms: number, timeoutError: () => Error) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms);
  });
  // The abandoned work may still fail; nobody is waiting for that answer any more.
  work.catch(() => {});
  try {
    await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `action` once and shares its promise; a failure is forgotten so the next call tries again. */
function once(action: () => Promise<void>) {
  let running: Promise<void> | undefined;
  return () =>
    (running ??= action().catch((error: unknown) => {
      running = undefined;
      throw error;
    }));
}
