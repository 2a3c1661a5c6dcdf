import type { Sql } from '../sql/sql.port.js';
import type { ConsumeOptions, Consumer, DeliveredMessage, MessageBus } from './message-bus.port.js';

const schema = `
CREATE TABLE IF NOT EXISTS bus_messages (
  seq bigserial PRIMARY KEY,
  topic text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS bus_messages_topic ON bus_messages (topic, seq);
CREATE TABLE IF NOT EXISTS bus_offsets (
  group_id text NOT NULL,
  topic text NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (group_id, topic)
);`;

const IDLE_POLL_MS = 200;
const PAGE = 100;
/** How long handled messages may wait for their acknowledgement to be written. */
const ACK_DELAY_MS = 100;

/** How a topic loop is woken: `pending` remembers a publish that came while it was busy, so no wake-up is lost. */
interface Signal {
  wake?: () => void;
  pending: boolean;
}
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 5000;

/**
 * The embedded default's message bus: a log table and committed offsets in the same database as the
 * event store (PGlite under ./data), so nothing is lost across a restart. Each topic is one ordered
 * partition: order per key holds because order per topic does. Publishers of a topic take an
 * advisory lock until commit, so sequence numbers become visible in order even on a real Postgres.
 */
export async function createSqlBus(deps: { sql: Sql }): Promise<MessageBus> {
  const { sql } = deps;
  await sql.exec(schema);
  /** Per consumer: wakes its loop for one topic (a publish wakes only the readers of its topic), or all of them. */
  const wakers = new Set<(topic?: string) => void>();
  const consumers = new Set<{ stop: () => Promise<void> }>();

  async function runLoop(options: ConsumeOptions, topic: string, isRunning: () => boolean, signal: Signal) {
    const { groupId } = options;
    const start = options.fromBeginning === false ? `(SELECT coalesce(max(seq), 0) FROM bus_messages WHERE topic = $2)` : '0';
    await sql.query(`INSERT INTO bus_offsets (group_id, topic, seq) VALUES ($1, $2, ${start}) ON CONFLICT DO NOTHING`, [groupId, topic]);
    const { rows: stored } = await sql.query<{ seq: string }>(`SELECT seq::text AS seq FROM bus_offsets WHERE group_id = $1 AND topic = $2`, [groupId, topic]);
    /** The last message handled; what is stored (`acked`) follows it shortly. */
    let handled = stored[0]!.seq;
    let acked = handled;
    let acking: Promise<void> = Promise.resolve();
    let ackTimer: NodeJS.Timeout | undefined;
    // Acknowledge only what the handler resolved, and in one write for everything handled in the last
    // moment rather than one per message: a crash in between redelivers those, which at-least-once allows.
    const ack = () => {
      clearTimeout(ackTimer);
      ackTimer = undefined;
      acking = acking.then(async () => {
        const target = handled;
        if (target === acked) return;
        await sql.query(`UPDATE bus_offsets SET seq = $3 WHERE group_id = $1 AND topic = $2`, [groupId, topic, target]);
        acked = target;
      });
      return acking;
    };
    let retryDelay = RETRY_FIRST_MS;
    try {
      while (isRunning()) {
        // Whatever was published before this read is in it; a publish during the work below wakes the next pause.
        signal.pending = false;
        const { rows } = await sql.query<{ seq: string; key: string; value: string; headers: Record<string, string> }>(
          `SELECT m.seq::text AS seq, m.key, m.value, m.headers FROM bus_messages m
           WHERE m.topic = $1 AND m.seq > $2::bigint ORDER BY m.seq LIMIT ${PAGE}`,
          [topic, handled],
        );
        let failed = false;
        for (const row of rows) {
          if (!isRunning()) break;
          const message: DeliveredMessage = { topic, partition: 0, offset: row.seq, key: row.key, value: row.value, headers: row.headers };
          try {
            await options.handler(message);
          } catch {
            failed = true;
            break;
          }
          retryDelay = RETRY_FIRST_MS;
          handled = row.seq;
        }
        if (handled !== acked) ackTimer ??= setTimeout(() => void ack().catch(() => {}), ACK_DELAY_MS);
        if (!isRunning()) return;
        if (failed) {
          await pause(retryDelay, signal, false);
          retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
        } else if (rows.length < PAGE) {
          // The page was the end of the topic: sleep until a publish (one that came meanwhile wakes us at once).
          await pause(IDLE_POLL_MS, signal, true);
        }
      }
    } finally {
      await ack().catch(() => {});
    }
  }

  /** A database error (Postgres restarting, say) must not end the consumer: wait and carry on. */
  async function superviseLoop(options: ConsumeOptions, topic: string, isRunning: () => boolean, signal: Signal) {
    while (isRunning()) {
      try {
        await runLoop(options, topic, isRunning, signal);
      } catch {
        if (isRunning()) await pause(RETRY_MAX_MS, signal, true);
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
      // One statement, one round trip: the lock is taken first and held until the statement's own commit.
      await sql.query(
        `WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtext($1)))
         INSERT INTO bus_messages (topic, key, value, headers)
         SELECT $1, k, v, h::jsonb FROM locked, unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS m(k, v, h, n) ORDER BY n`,
        [topic, messages.map((m) => m.key), messages.map((m) => m.value), messages.map((m) => JSON.stringify(m.headers ?? {}))],
      );
      wakers.forEach((wake) => wake(topic));
    },

    async consume(options): Promise<Consumer> {
      let running = true;
      const signals = new Map(options.topics.map((topic) => [topic, { pending: false } as Signal]));
      const waker = (topic?: string) => {
        for (const [name, signal] of signals) {
          if (topic !== undefined && name !== topic) continue;
          signal.pending = true;
          signal.wake?.();
        }
      };
      wakers.add(waker);
      const loops = [...signals].map(([topic, signal]) => superviseLoop(options, topic, () => running, signal));
      const consumer = {
        async stop() {
          running = false;
          waker();
          wakers.delete(waker);
          consumers.delete(consumer);
          await Promise.all(loops);
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async close() {
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
    },
  };
}
