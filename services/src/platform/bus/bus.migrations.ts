import type { Migration } from '../sql/migrations.js';

/**
 * The bus module's tables: the in-process bus's log and offsets, the inbox that makes a consumer's
 * effect exactly-once, and the deployment's id that names its Kafka consumer groups.
 */
export const busMigrations: readonly Migration[] = [
  {
    id: '001-sql-bus',
    sql: `
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
);`,
  },
  {
    id: '002-inbox',
    sql: `CREATE TABLE IF NOT EXISTS bus_inbox (
  consumer text NOT NULL,
  message_id text NOT NULL,
  handled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, message_id)
)`,
  },
  {
    // Drawn once, on the database's first start: every process of the deployment reads the same id.
    id: '003-deployment-id',
    sql: `CREATE TABLE IF NOT EXISTS kesher_deployment (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO kesher_deployment (id) VALUES (left(replace(gen_random_uuid()::text, '-', ''), 16)) ON CONFLICT DO NOTHING`,
  },
  {
    // The delivery ledger (delivery-ledger.ts, docs/bus.md): how far each group may have handed messages to
    // handlers, attempts of unfinished messages, and parked messages. Used by both buses.
    id: '004-dead-letters',
    sql: `CREATE TABLE IF NOT EXISTS bus_reservations (
  group_id text NOT NULL,
  topic text NOT NULL,
  partition integer NOT NULL,
  reserved_to bigint NOT NULL,
  PRIMARY KEY (group_id, topic, partition)
);
CREATE TABLE IF NOT EXISTS bus_attempts (
  group_id text NOT NULL,
  topic text NOT NULL,
  partition integer NOT NULL,
  message_offset bigint NOT NULL,
  attempts integer NOT NULL,
  in_flight boolean NOT NULL,
  last_error text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, topic, partition, message_offset)
);
CREATE TABLE IF NOT EXISTS bus_dead_letters (
  id bigserial PRIMARY KEY,
  group_id text NOT NULL,
  topic text NOT NULL,
  partition integer NOT NULL,
  message_offset bigint NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  headers jsonb NOT NULL,
  attempts integer NOT NULL,
  reason text NOT NULL,
  parked_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, topic, partition, message_offset)
);`,
  },
  {
    // Each topic's last message, moved by every publish under a row lock held to commit: a publish learns the
    // message its own first one follows, so this process's readers can take what it published without reading
    // it back (sql.bus.ts, "handed"). The sequence is global, so the topic's own predecessor cannot be inferred.
    id: '005-bus-topic-heads',
    sql: `CREATE TABLE IF NOT EXISTS bus_topic_heads (
  topic text PRIMARY KEY,
  last_seq bigint NOT NULL
);
INSERT INTO bus_topic_heads (topic, last_seq) SELECT topic, max(seq) FROM bus_messages GROUP BY topic ON CONFLICT DO NOTHING`,
  },
];
