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
  const wakers = new Set<() => void>();
  const consumers = new Set<{ stop: () => Promise<void> }>();

  async function runLoop(options: ConsumeOptions, topic: string, isRunning: () => boolean, setWake: (wake?: () => void) => void) {
    const { groupId } = options;
    const start = options.fromBeginning === false ? `(SELECT coalesce(max(seq), 0) FROM bus_messages WHERE topic = $2)` : '0';
    await sql.query(`INSERT INTO bus_offsets (group_id, topic, seq) VALUES ($1, $2, ${start}) ON CONFLICT DO NOTHING`, [groupId, topic]);
    let retryDelay = RETRY_FIRST_MS;
    while (isRunning()) {
      const { rows } = await sql.query<{ seq: string; key: string; value: string; headers: Record<string, string> }>(
        `SELECT m.seq::text AS seq, m.key, m.value, m.headers FROM bus_messages m
         WHERE m.topic = $2 AND m.seq > (SELECT seq FROM bus_offsets WHERE group_id = $1 AND topic = $2)
         ORDER BY m.seq LIMIT 100`,
        [groupId, topic],
      );
      let failed = false;
      for (const row of rows) {
        if (!isRunning()) return;
        const message: DeliveredMessage = { topic, partition: 0, offset: row.seq, key: row.key, value: row.value, headers: row.headers };
        try {
          await options.handler(message);
        } catch {
          failed = true;
          break;
        }
        retryDelay = RETRY_FIRST_MS;
        // Acknowledge only after the handler resolved.
        await sql.query(`UPDATE bus_offsets SET seq = $3 WHERE group_id = $1 AND topic = $2`, [groupId, topic, row.seq]);
      }
      if (failed) {
        await pause(retryDelay, setWake, false);
        retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
      } else if (rows.length === 0) {
        await pause(IDLE_POLL_MS, setWake, true);
      }
    }
  }

  /** A database error (Postgres restarting, say) must not end the consumer: wait and carry on. */
  async function superviseLoop(options: ConsumeOptions, topic: string, isRunning: () => boolean, setWake: (wake?: () => void) => void) {
    while (isRunning()) {
      try {
        await runLoop(options, topic, isRunning, setWake);
      } catch {
        if (isRunning()) await pause(RETRY_MAX_MS, setWake, true);
      }
    }
  }

  function pause(ms: number, setWake: (wake?: () => void) => void, wakeable: boolean) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        setWake(undefined);
        resolve();
      }
      setWake(wakeable ? done : undefined);
    });
  }

  return {
    name: 'in-process',

    async publish(topic, messages) {
      if (messages.length === 0) return;
      await sql.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [topic]);
        await tx.query(
          `INSERT INTO bus_messages (topic, key, value, headers)
           SELECT $1, k, v, h::jsonb FROM unnest($2::text[], $3::text[], $4::text[]) AS m(k, v, h)`,
          [topic, messages.map((m) => m.key), messages.map((m) => m.value), messages.map((m) => JSON.stringify(m.headers ?? {}))],
        );
      });
      wakers.forEach((wake) => wake());
    },

    async consume(options): Promise<Consumer> {
      let running = true;
      const wakes = new Map<string, (() => void) | undefined>();
      const waker = () => wakes.forEach((wake) => wake?.());
      wakers.add(waker);
      const loops = options.topics.map((topic) =>
        superviseLoop(options, topic, () => running, (wake) => wakes.set(topic, wake)),
      );
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
