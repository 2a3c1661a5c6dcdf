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
import type { Sql } from '../sql/sql.port.js';
import {
  backoffMs,
  createConsumerEngine,
  type ConsumerEngine,
  type DeliveryOptions,
  type PartitionSession,
} from './consumer-engine.js';
import { acceptsEventType, EVENT_TYPE_HEADER } from './event-types.js';
import { createMemoryDeliveryLedger, createSqlDeliveryLedger, type DeliveryLedger } from './delivery-ledger.js';
import type { ConsumeOptions, Consumer, DeliveredMessage, MessageBus, OutgoingMessage } from './message-bus.port.js';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions of the topics this bus creates. */
  partitions?: number;
  /**
   * The deployment's database, where the delivery ledger lives: attempts of unfinished messages (so a
   * message that kills its consumer is counted across restarts) and dead letters. Without it (benches,
   * tools) attempts are counted in this process only and dead letters kept in memory.
   */
  sql?: Sql;
  /** Attempts before parking, metrics, logging (consumer-engine.ts). */
  deliveries?: DeliveryOptions;
  /**
   * How long the group waits for a silent member before moving its partitions. Handlers run beside the
   * fetch loop, which keeps heartbeating, so a long handler does not lose its partition. This is how
   * long the partitions of a member that died (kill -9) wait before another member takes them, and how
   * long a consumer takes to get its partitions back after a broker restart that it could not leave the
   * group through. Default 10 s (the broker's minimum is 6 s).
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
}

/**
 * kafkajs retries each request with a growing back-off (about 15 s in all). Bounded so that, with the
 * broker gone, a publish rejects instead of hanging, while a broker restart of a few seconds is bridged
 * without the caller noticing.
 */
const clientRetry: RetryOptions = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 5 };

/** Messages a consumer holds in memory per partition beyond the lowest unfinished one; past it the partition is paused. */
const WINDOW = 1_000;
/** How long a finished message may wait for its offset to be committed (a crash in between only redelivers it). */
const COMMIT_DELAY_MS = 200;

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
  const ledger: DeliveryLedger = options.sql
    ? createSqlDeliveryLedger({ sql: options.sql })
    : createMemoryDeliveryLedger();
  const reservations = new Map<string, bigint>();

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
      await withDeadline(
        send(),
        timeoutMs,
        () => new Error(`publish to ${topic} was not acknowledged within ${timeoutMs} ms`),
      );
    },

    async consume(consumeOptions) {
      await topics.ensure(consumeOptions.topics);
      const engine = createConsumerEngine({
        options: consumeOptions,
        ledger,
        deliveries: options.deliveries ?? {},
        reservations,
      });
      const consumer = await startGroupConsumer(kafka, consumeOptions, options, engine);
      const tracked: Consumer = {
        async stop() {
          consumers.delete(tracked);
          await consumer.stop();
        },
      };
      consumers.add(tracked);
      return tracked;
    },

    deadLetters: (query) => ledger.list(query),

    async close() {
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
      await Promise.all([producer.disconnect(), topics.close()]);
    },
  };
}

function toKafkaMessage(message: OutgoingMessage) {
  return { key: message.key, value: message.value, headers: message.headers ?? {} };
}

/** How long a topic's creation may take to settle (metadata and leaders) before `ensure` gives up. */
const TOPIC_READY_TIMEOUT_MS = 30_000;
/**
 * What the broker answers while a topic is being created, by this client or by another at the same
 * time: it does not know the topic yet, has no leader for a partition yet, or the topic exists already.
 * Each only means "ask again".
 */
const SETTLING = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'TOPIC_ALREADY_EXISTS',
  'NOT_CONTROLLER',
  'REQUEST_TIMED_OUT',
]);

/**
 * Creates topics before they are used: a consumer subscribed to a topic that does not exist yet does not
 * see it appear (kafkajs only refreshes metadata for topics it knows), and broker-side auto-creation would
 * ignore the partition count. Topics known to exist are remembered, so this costs a request or two per
 * topic and bus. Existence is checked first because kafkajs logs a refused creation as an error.
 *
 * kafkajs' own `waitForLeaders` gives up on the first UNKNOWN_TOPIC_OR_PARTITION, which a fresh broker
 * answers right after the creation (and more so when two processes create the same topics at once): the
 * workers process exited at start so. The creation is therefore followed by our own check of the topic's
 * metadata and of its leaders' offsets, asked again with a growing back-off until every partition's
 * leader answers, within
 * TOPIC_READY_TIMEOUT_MS; only errors other than SETTLING ones (the broker down) end it early.
 */
function createTopicRegistry(admin: Admin, numPartitions: number) {
  const ready = new Map<string, Promise<void>>();
  const connect = once(() => admin.connect());
  let offsetsAsked: Promise<unknown> = Promise.resolve();

  const led = async (topic: string) => {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitions = topics.find((found) => found.name === topic)?.partitions ?? [];
    if (
      partitions.length === 0 ||
      !partitions.every((partition) => partition.partitionErrorCode === 0 && partition.leader >= 0)
    )
      return false;
    // The metadata may name a leader before that broker serves the partition as one: a produce then
    // fails with NOT_LEADER_FOR_PARTITION on some partitions, and kafkajs sends the whole request
    // again, writing the others twice. Asking each leader for its offsets waits until they answer.
    // One topic at a time: concurrent calls share the admin's metadata cache, and one refreshing it
    // under another made kafkajs fail with a TypeError (an empty answer), taken as "not yet" too.
    const asked = (offsetsAsked = offsetsAsked.catch(() => {}).then(() => admin.fetchTopicOffsets(topic)));
    try {
      await asked;
      return true;
    } catch (error) {
      if (error instanceof TypeError) return false;
      throw error;
    }
  };

  const create = async (topic: string) => {
    await connect();
    const deadline = Date.now() + TOPIC_READY_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        // Returns false, without failing, when another client created the topic meanwhile.
        if (!(await admin.listTopics()).includes(topic))
          await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: false });
        if (await led(topic)) return;
      } catch (error) {
        if (!settling(error) || Date.now() >= deadline) throw error;
      }
      if (Date.now() >= deadline)
        throw new Error(`topic ${topic} has no leader for every partition after ${TOPIC_READY_TIMEOUT_MS} ms`);
      await sleep(Math.min(1_000, 50 * 2 ** (attempt - 1)));
    }
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

/** A settling answer, also inside the aggregate error kafkajs makes of a multi-topic request. */
function settling(error: unknown): boolean {
  const { type, errors } = (error ?? {}) as { type?: string; errors?: unknown[] };
  if (type !== undefined && SETTLING.has(type)) return true;
  return Array.isArray(errors) && errors.length > 0 && errors.every(settling);
}

/** A partition this consumer reads, in the current group generation. */
interface ReadPartition {
  topic: string;
  partition: number;
  session: PartitionSession;
  consumer: KafkaConsumer;
  /** Committed offset (the next to read) and the one to commit next. */
  committed: bigint;
  target: bigint;
  timer?: NodeJS.Timeout;
  committing: Promise<void>;
}

/**
 * A kafkajs consumer restarts itself after most failures, but not after errors it classes as not
 * retriable (a missing group coordinator while the broker restarts is one). This supervisor replaces a
 * consumer that gave up with a new one, so a subscription survives any broker outage.
 *
 * kafkajs fetches again only once every batch of its last fetch was handled, so a batch that waits for
 * its handlers would hold every partition (and every later message) behind its slowest message. The
 * batches are therefore handed to the consumer engine and the fetch goes on: the engine handles them
 * (several lanes at once, one key at a time), and this consumer commits each partition's lowest
 * unfinished offset itself (kafkajs' auto-commit is off; `resolveOffset` only moves the fetch position).
 * A partition whose backlog reaches WINDOW is paused until it drains.
 */
async function startGroupConsumer(
  kafka: Kafka,
  consume: ConsumeOptions,
  options: KafkaBusOptions,
  engine: ConsumerEngine,
) {
  let stopped = false;
  let current: KafkaConsumer | undefined;
  let replacing: Promise<void> | undefined;
  // Set again when a replacement gives up while it is still starting, so the loop below goes on.
  let needsReplacement = false;
  const reading = new Map<string, ReadPartition>();
  const paused = new Set<ReadPartition>();
  const accepts = acceptsEventType(consume.eventTypes);

  const commit = (read: ReadPartition) => {
    clearTimeout(read.timer);
    read.timer = undefined;
    read.committing = read.committing.then(async () => {
      const offset = read.target;
      if (read.session.detached || offset <= read.committed) return;
      try {
        await read.consumer.commitOffsets([
          { topic: read.topic, partition: read.partition, offset: offset.toString() },
        ]);
        read.committed = offset;
      } catch {
        // The broker or the group is in motion: try again shortly (a rebalance detaches the partition instead).
        if (!read.session.detached) read.timer ??= setTimeout(() => void commit(read), 1_000);
      }
    });
    return read.committing;
  };

  /** A new generation reads every partition again from its committed offset: forget what was queued. */
  const forgetPartitions = () => {
    for (const read of reading.values()) {
      read.session.detach();
      clearTimeout(read.timer);
    }
    for (const read of paused) {
      try {
        read.consumer.resume([{ topic: read.topic, partitions: [read.partition] }]);
      } catch {
        // A consumer that is gone has nothing paused.
      }
    }
    paused.clear();
    reading.clear();
  };

  const openRead = async (
    consumer: KafkaConsumer,
    topic: string,
    partition: number,
    from: bigint,
  ): Promise<ReadPartition> => {
    // Assigned before the session can call back: its hooks fire only once messages were added.
    let read!: ReadPartition;
    const session = await engine.openPartition({ groupId: consume.groupId, topic, partition }, from, {
      onCommitPoint(offset, urgent) {
        read.target = offset;
        if (urgent) void commit(read);
        else read.timer ??= setTimeout(() => void commit(read), COMMIT_DELAY_MS);
      },
      onProgress() {
        if (!paused.has(read) || read.session.backlog > WINDOW / 2) return;
        paused.delete(read);
        try {
          read.consumer.resume([{ topic, partitions: [partition] }]);
        } catch {
          // Replaced meanwhile: the new consumer reads it unpaused.
        }
      },
    });
    read = { topic, partition, consumer, session, committed: from, target: from, committing: Promise.resolve() };
    return read;
  };

  const eachBatch = (consumer: KafkaConsumer) => async (payload: EachBatchPayload) => {
    const { batch, resolveOffset, isRunning, isStale } = payload;
    // Not resolved: whoever reads the partition next fetches these again.
    if (engine.stopping || stopped || !isRunning() || isStale() || batch.messages.length === 0) return;
    const id = `${batch.topic}/${batch.partition}`;
    let read = reading.get(id);
    if (!read || read.consumer !== consumer) {
      read?.session.detach();
      read = await openRead(consumer, batch.topic, batch.partition, BigInt(batch.messages[0]!.offset));
      reading.set(id, read);
    }
    // Messages of event types this consumer does not handle are left out by their header alone: their
    // value is never decoded, and the session counts their offsets as finished.
    const wanted = batch.messages.filter((message) => accepts(headerText(message.headers?.[EVENT_TYPE_HEADER])));
    await read.session.add(
      wanted.map((message) => toDelivered(batch.topic, batch.partition, message)),
      BigInt(batch.lastOffset()),
      batch.messages.length - wanted.length,
    );
    resolveOffset(batch.lastOffset());
    if (read.session.backlog >= WINDOW && !paused.has(read)) {
      paused.add(read);
      payload.pause();
    }
  };

  const onGaveUp = () => {
    needsReplacement = true;
    if (!stopped) replacing ??= replace().finally(() => (replacing = undefined));
  };

  const launch = async (consumer = createConsumer(kafka, consume.groupId, options, onGaveUp)) => {
    current = consumer;
    consumer.on(consumer.events.GROUP_JOIN, forgetPartitions);
    // Commit what is finished before the partitions may move (the broker still takes commits while it prepares the rebalance).
    consumer.on(consumer.events.REBALANCING, () => {
      for (const read of reading.values()) void commit(read);
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [...consume.topics], fromBeginning: consume.fromBeginning ?? true });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: eachBatch(consumer) });
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
    await engine.stop();
    await current?.disconnect().catch(() => {});
    throw error;
  }

  return {
    async stop() {
      stopped = true;
      try {
        // Whatever is fetched from now on would only be refused (and fetched again, at once).
        current?.pause(consume.topics.map((topic) => ({ topic })));
      } catch {
        // Not running (replaced, or never started): nothing to pause.
      }
      // Let the handlers that run finish, commit what they finished, then leave the group.
      await engine.stop();
      const reads = [...reading.values()];
      await Promise.all(reads.map(commit));
      await Promise.all(
        reads.filter((read) => read.committed === read.target).map((read) => read.session.release().catch(() => {})),
      );
      reads.forEach((read) => clearTimeout(read.timer));
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
    const text = headerText(value);
    if (text !== undefined) result[name] = text;
  }
  return result;
}

/** Kafka allows a header name to repeat; the port has one value per name, so the last one wins. */
function headerText(value: IHeaders[string]): string | undefined {
  const last = Array.isArray(value) ? value.at(-1) : value;
  return last === undefined ? undefined : last.toString();
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
