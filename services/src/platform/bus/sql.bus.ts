import { randomUUID } from 'node:crypto';
import type { Sql } from '../sql/sql.port.js';
import { createConsumerEngine, type ConsumerEngine, type DeliveryOptions } from './consumer-engine.js';
import { createSqlDeliveryLedger } from './delivery-ledger.js';
import { acceptsEventType, EVENT_TYPE_HEADER } from './event-types.js';
import type { ConsumeOptions, Consumer, DeliveredMessage, MessageBus } from './message-bus.port.js';

/** How often an idle topic loop looks at the table when nothing wakes it. */
const IDLE_POLL_MS = 200;
/**
 * The same once publishes of other processes wake it (NOTIFY): only a safety net for a notification lost
 * while the listening connection was re-opened.
 * Idle loops polling five times a second were most of a chat turn's bus statements.
 */
const WOKEN_IDLE_POLL_MS = 3_000;
/** The channel a publish notifies: `<topic> <publishing bus instance>`. */
const BUS_CHANNEL = 'kesher_bus';
const PAGE = 100;
/** Messages a consumer holds in memory per topic beyond the lowest unfinished one: how far ahead it looks for other lanes. */
const WINDOW = 1_000;
/**
 * How long handled messages may wait for their acknowledgement to be written: one write per second per
 * consumer and topic, whatever the traffic (at 100 ms it was about one UPDATE per chat turn). A crash
 * redelivers what was handled since, as at-least-once allows; after a suspect the write is at once.
 */
const ACK_DELAY_MS = 1000;
/** How long a loop waits after a database error before it starts again. */
const RESTART_MS = 5_000;

/** A row of a topic page; `wanted` is false (and the message's own columns null) for a skipped event type. */
interface PageRow {
  seq: string;
  wanted?: boolean;
  key: string | null;
  value: string | null;
  headers: Record<string, string> | null;
}

/** A message this process published, with the offset of the topic's message before it (`after`). */
interface Handed {
  after: bigint;
  message: DeliveredMessage;
}

/**
 * How a topic loop is woken: `pending` remembers a publish that came while it was busy, so no wake-up is
 * lost. `handed` holds what this process published to the topic since, as committed: when it follows on
 * from what the loop has read, the loop takes it from there instead of reading it back from the table.
 */
interface Signal {
  wake?: () => void;
  pending: boolean;
  handed: Handed[];
}

/**
 * The embedded default's message bus: a log table and committed offsets in the same database as the
 * event store (PGlite under ./data), so nothing is lost across a restart. Each topic is one ordered
 * partition (partition 0): order per key holds because messages of a key are never handled out of
 * turn (consumer-engine.ts). Publishers of a topic lock its `bus_topic_heads` row until commit, so
 * sequence numbers become visible in order even on a real Postgres. The tables are the bus module's migrations.
 */
export async function createSqlBus(deps: { sql: Sql; deliveries?: DeliveryOptions }): Promise<MessageBus> {
  const { sql } = deps;
  const ledger = createSqlDeliveryLedger({ sql });
  const reservations = new Map<string, bigint>();
  /** Per consumer: wakes its loop for one topic (a publish wakes only the readers of its topic, handing it what was published), or all of them. */
  const wakers = new Set<(topic?: string, published?: readonly Handed[]) => void>();
  /** Topics whose head row this process has made sure of (a publish without it would insert nothing). */
  const headed = new Set<string>();
  const consumers = new Set<{ stop: () => Promise<void> }>();
  // Other processes' publishes wake this one's readers by NOTIFY (on PGlite: other bus instances on the same database).
  const instance = randomUUID().slice(0, 8);
  let idlePollMs = IDLE_POLL_MS;
  let listening: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  function listenForOthers() {
    listening ??= sql
      .listen(BUS_CHANNEL, (payload) => {
        const [topic, from] = payload.split(' ');
        if (from !== instance && topic) wakers.forEach((wake) => wake(topic));
      })
      .then(
        (stop) => {
          unlisten = stop;
          idlePollMs = WOKEN_IDLE_POLL_MS;
        },
        // Without a listening connection, the loops keep polling often: slower to hear, never deaf.
        () => {},
      );
    return listening;
  }

  async function runLoop(
    options: ConsumeOptions,
    engine: ConsumerEngine,
    topic: string,
    isRunning: () => boolean,
    signal: Signal,
    stopped: () => Promise<void>,
  ) {
    const { groupId } = options;
    const start =
      options.fromBeginning === false ? `(SELECT coalesce(max(seq), 0) FROM bus_messages WHERE topic = $2)` : '0';
    await sql.query(`INSERT INTO bus_offsets (group_id, topic, seq) VALUES ($1, $2, ${start}) ON CONFLICT DO NOTHING`, [
      groupId,
      topic,
    ]);
    const { rows: stored } = await sql.query<{ seq: string }>(
      `SELECT seq::text AS seq FROM bus_offsets WHERE group_id = $1 AND topic = $2`,
      [groupId, topic],
    );
    /** The stored offset is the last message handled; `target` is what may be stored next. */
    let acked = BigInt(stored[0]!.seq);
    let target = acked;
    let acking: Promise<void> = Promise.resolve();
    let ackTimer: NodeJS.Timeout | undefined;
    // Acknowledge only what is finished, and in one write for everything finished in the last moment
    // rather than one per message: a crash in between redelivers those, which at-least-once allows.
    const ack = () => {
      clearTimeout(ackTimer);
      ackTimer = undefined;
      acking = acking.then(async () => {
        const next = target;
        if (next <= acked) return;
        await sql.query(`UPDATE bus_offsets SET seq = GREATEST(seq, $3) WHERE group_id = $1 AND topic = $2`, [
          groupId,
          topic,
          next.toString(),
        ]);
        acked = next;
      });
      return acking;
    };
    let windowFull = false;
    const accepts = acceptsEventType(options.eventTypes);
    const page = pageQuery(options.eventTypes);
    const session = await engine.openPartition({ groupId, topic, partition: 0 }, acked + 1n, {
      onCommitPoint(point, urgent) {
        target = point - 1n;
        if (urgent) void ack().catch(() => {});
        else ackTimer ??= setTimeout(() => void ack().catch(() => {}), ACK_DELAY_MS);
      },
      onProgress() {
        // Only a loop that stopped reading because its window was full needs to hear about it.
        if (!windowFull) return;
        signal.pending = true;
        signal.wake?.();
      },
    });
    let read = acked;
    try {
      while (isRunning()) {
        // Whatever was published before this read is in it; a publish during the work below wakes the next pause.
        signal.pending = false;
        windowFull = session.backlog >= WINDOW;
        if (!windowFull) {
          const handed = takeHanded(signal, read);
          if (handed) {
            const wanted = handed.filter((message) => accepts(message.headers[EVENT_TYPE_HEADER]));
            await session.add(wanted, BigInt(handed[handed.length - 1]!.offset), handed.length - wanted.length);
            read = BigInt(handed[handed.length - 1]!.offset);
            if (handed.length === PAGE) continue;
            await pause(idlePollMs, signal, true);
            continue;
          }
          const { rows } = await sql.query<PageRow>(page.text, [topic, read.toString(), ...page.params]);
          if (rows.length > 0) {
            const messages = rows
              .filter((row) => row.wanted !== false)
              .map((row): DeliveredMessage => ({
                topic,
                partition: 0,
                offset: row.seq,
                key: row.key!,
                value: row.value!,
                headers: row.headers!,
              }));
            const last = BigInt(rows[rows.length - 1]!.seq);
            await session.add(messages, last, rows.length - messages.length);
            read = last;
          }
          // A full page: there may be more right away.
          if (rows.length === page.limit) continue;
        }
        // The end of the topic (or a full window): sleep until a publish or progress (one that came meanwhile wakes us at once).
        await pause(idlePollMs, signal, true);
      }
    } catch (error) {
      session.detach();
      clearTimeout(ackTimer);
      throw error;
    } finally {
      if (!session.detached) {
        // Stopping: once the handlers still running are done, store what they finished and say nothing is in flight.
        await stopped();
        await ack().catch(() => {});
        if (target === acked) await session.release().catch(() => {});
      }
    }
  }

  /**
   * The statement that reads the next messages of a topic. A consumer that declares its event types gets
   * the messages of other types as their offsets alone (the `event-type` header is in the `headers`
   * column, so no column or migration is needed and older rows are filtered too): their values never
   * leave the database, and the read moves past them in pages ten times longer, as they cost no handler.
   */
  function pageQuery(eventTypes: readonly string[] | undefined) {
    if (!eventTypes) {
      return {
        text: `SELECT m.seq::text AS seq, m.key, m.value, m.headers FROM bus_messages m
               WHERE m.topic = $1 AND m.seq > $2::bigint ORDER BY m.seq LIMIT ${PAGE}`,
        params: [] as unknown[],
        limit: PAGE,
      };
    }
    const limit = PAGE * 10;
    return {
      // The page is taken first and the type decided on its rows alone: decided in the same scan, the
      // planner evaluated it for every row of the topic before it sorted and cut the page.
      text: `SELECT p.seq::text AS seq, w.wanted,
                    CASE WHEN w.wanted THEN p.key END AS key, CASE WHEN w.wanted THEN p.value END AS value, CASE WHEN w.wanted THEN p.headers END AS headers
             FROM (SELECT m.seq, m.key, m.value, m.headers FROM bus_messages m
                   WHERE m.topic = $1 AND m.seq > $2::bigint ORDER BY m.seq LIMIT ${limit}) p
             CROSS JOIN LATERAL (SELECT (NOT (p.headers ? '${EVENT_TYPE_HEADER}') OR p.headers->>'${EVENT_TYPE_HEADER}' = ANY($3::text[])) AS wanted) w
             ORDER BY p.seq`,
      params: [[...eventTypes]] as unknown[],
      limit,
    };
  }

  /**
   * What this process published that follows on exactly from `read`, message after message of the topic
   * (undefined when nothing does: the next message is another process's, and the table is read instead).
   * The chain stops at the first gap; whatever lies beyond it is read from the table on the next turn.
   */
  function takeHanded(signal: Signal, read: bigint): DeliveredMessage[] | undefined {
    const byPredecessor = new Map<bigint, DeliveredMessage>();
    for (const { after, message } of signal.handed)
      if (BigInt(message.offset) > read) byPredecessor.set(after, message);
    signal.handed = [];
    const chain: DeliveredMessage[] = [];
    for (let next = byPredecessor.get(read); next && chain.length < PAGE; next = byPredecessor.get(BigInt(next.offset)))
      chain.push(next);
    return chain.length > 0 ? chain : undefined;
  }

  /** A database error (Postgres restarting, say) must not end the consumer: wait and carry on. */
  async function superviseLoop(
    options: ConsumeOptions,
    engine: ConsumerEngine,
    topic: string,
    isRunning: () => boolean,
    signal: Signal,
    stopped: () => Promise<void>,
  ) {
    while (isRunning()) {
      try {
        await runLoop(options, engine, topic, isRunning, signal, stopped);
      } catch {
        if (isRunning()) await pause(RESTART_MS, signal, true);
      }
    }
  }

  function pause(ms: number, signal: Signal, wakeable: boolean) {
    return new Promise<void>((resolve) => {
      if (wakeable && signal.pending) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.wake = undefined;
        resolve();
      }
      if (wakeable) signal.wake = done;
    });
  }

  return {
    name: 'in-process',

    async publish(topic, messages) {
      if (messages.length === 0) return;
      if (!headed.has(topic)) {
        await sql.query(`INSERT INTO bus_topic_heads (topic, last_seq) VALUES ($1, 0) ON CONFLICT DO NOTHING`, [topic]);
        headed.add(topic);
      }
      // One statement, one round trip: the topic's head row is locked first and held until the statement's own
      // commit, so publishes to a topic take their sequence numbers and become visible in order, and each
      // learns the offset of the topic message its first one follows (`after`).
      const { rows } = await sql.query<{ seq: string; after: string }>(
        `WITH head AS MATERIALIZED (SELECT last_seq FROM bus_topic_heads WHERE topic = $1 FOR UPDATE),
         written AS (
           INSERT INTO bus_messages (topic, key, value, headers)
           SELECT $1, k, v, h::jsonb FROM head, unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS m(k, v, h, n) ORDER BY n
           RETURNING seq),
         moved AS (UPDATE bus_topic_heads SET last_seq = (SELECT max(seq) FROM written) WHERE topic = $1)
         SELECT seq::text AS seq, (SELECT last_seq::text FROM head) AS after,
           -- Delivered at commit, to other bus instances' readers (this one's are handed the messages below).
           (SELECT pg_notify('${BUS_CHANNEL}', $1 || ' ' || $5::text)) AS notified
         FROM written`,
        [
          topic,
          messages.map((m) => m.key),
          messages.map((m) => m.value),
          messages.map((m) => JSON.stringify(m.headers ?? {})),
          instance,
        ],
      );
      if (rows.length !== messages.length) {
        // The head row is gone (a restored or hand-edited database): nothing was written; make it again and say so.
        headed.delete(topic);
        throw new Error(`bus: topic ${topic} has no head row; nothing was published, try again`);
      }
      // Committed: this process's readers of the topic take the messages as they are, in sequence order.
      const seqs = rows.map((row) => BigInt(row.seq)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      let after = BigInt(rows[0]!.after);
      const published = messages.map((m, i): Handed => {
        const handed = {
          after,
          message: {
            topic,
            partition: 0,
            offset: seqs[i]!.toString(),
            key: m.key,
            value: m.value,
            headers: m.headers ?? {},
          },
        };
        after = seqs[i]!;
        return handed;
      });
      wakers.forEach((wake) => wake(topic, published));
    },

    async consume(options): Promise<Consumer> {
      await listenForOthers();
      let running = true;
      const engine = createConsumerEngine({ options, ledger, deliveries: deps.deliveries ?? {}, reservations });
      let stopping: Promise<void> | undefined;
      const stopEngine = () => (stopping ??= engine.stop());
      const signals = new Map(options.topics.map((topic): [string, Signal] => [topic, { pending: false, handed: [] }]));
      const waker = (topic?: string, published?: readonly Handed[]) => {
        for (const [name, signal] of signals) {
          if (topic !== undefined && name !== topic) continue;
          // Bounded: a loop that is not reading (a full window) drops them, and reads the table later.
          if (published && signal.handed.length < WINDOW) signal.handed.push(...published);
          signal.pending = true;
          signal.wake?.();
        }
      };
      wakers.add(waker);
      const loops = [...signals].map(([topic, signal]) =>
        superviseLoop(options, engine, topic, () => running, signal, stopEngine),
      );
      const consumer = {
        async stop() {
          running = false;
          waker();
          wakers.delete(waker);
          consumers.delete(consumer);
          await stopEngine();
          await Promise.all(loops);
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    deadLetters: (query) => ledger.list(query),

    async close() {
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
      await unlisten?.();
    },
  };
}
