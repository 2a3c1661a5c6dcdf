import type { Sql } from '../sql/sql.port.js';
import type { DeadLetter } from './message-bus.port.js';

/** One partition of one topic, as read by one consumer group. */
export interface PartitionRef {
  groupId: string;
  topic: string;
  partition: number;
}

/** What is durably known about a message's attempts. */
export interface AttemptRecord {
  attempts: number;
  /** The last counted attempt was written before its handler was called and has not ended since. */
  inFlight: boolean;
  lastError: string | null;
}

export interface PartitionHistory {
  /** The highest offset that may have been handed to a handler (null: never). */
  reservedTo: bigint | null;
  /** Attempt records of messages at or above the offset the partition was opened from. */
  attempts: Map<string, AttemptRecord>;
}

/**
 * Where a consumer group keeps what must survive its process: how often each unfinished message was
 * attempted, how far it may have handed messages to handlers (so that after a crash it knows which
 * messages were possibly being handled when the process died), and the dead letters. See docs/bus.md.
 */
export interface DeliveryLedger {
  /** What is known from `from` on; attempt records below it (committed since) are dropped. */
  open(ref: PartitionRef, from: bigint): Promise<PartitionHistory>;
  /** Durably notes that messages up to `upTo` may be handed to handlers (it never moves back here). */
  reserve(ref: PartitionRef, upTo: bigint): Promise<void>;
  /** After a clean stop: nothing is in flight above `to`, unless someone reserved beyond `ours` meanwhile. */
  release(ref: PartitionRef, to: bigint, ours: bigint): Promise<void>;
  recordAttempt(ref: PartitionRef, offset: string, record: AttemptRecord): Promise<void>;
  /** Drops the attempt records below `offset` (committed). */
  forgetBelow(ref: PartitionRef, offset: bigint): Promise<void>;
  /** Stores a dead letter; false if this message was parked already (a parking redone after a crash). */
  park(letter: Omit<DeadLetter, 'parkedAt'>): Promise<boolean>;
  list(query?: { groupId?: string; topic?: string; limit?: number }): Promise<DeadLetter[]>;
}

const refParams = (ref: PartitionRef) => [ref.groupId, ref.topic, ref.partition] as const;

export function createSqlDeliveryLedger(deps: { sql: Sql }): DeliveryLedger {
  const { sql } = deps;
  return {
    async open(ref, from) {
      await sql.query(
        `DELETE FROM bus_attempts WHERE group_id = $1 AND topic = $2 AND partition = $3 AND message_offset < $4`,
        [...refParams(ref), from.toString()],
      );
      const [reservation, attempts] = await Promise.all([
        sql.query<{ reserved_to: string }>(
          `SELECT reserved_to::text FROM bus_reservations WHERE group_id = $1 AND topic = $2 AND partition = $3`,
          refParams(ref),
        ),
        sql.query<{ message_offset: string; attempts: number; in_flight: boolean; last_error: string | null }>(
          `SELECT message_offset::text, attempts, in_flight, last_error FROM bus_attempts WHERE group_id = $1 AND topic = $2 AND partition = $3`,
          refParams(ref),
        ),
      ]);
      return {
        reservedTo: reservation.rows[0] ? BigInt(reservation.rows[0].reserved_to) : null,
        attempts: new Map(
          attempts.rows.map((row) => [
            row.message_offset,
            { attempts: row.attempts, inFlight: row.in_flight, lastError: row.last_error },
          ]),
        ),
      };
    },

    async reserve(ref, upTo) {
      await sql.query(
        `INSERT INTO bus_reservations (group_id, topic, partition, reserved_to) VALUES ($1, $2, $3, $4)
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET reserved_to = GREATEST(bus_reservations.reserved_to, EXCLUDED.reserved_to)`,
        [...refParams(ref), upTo.toString()],
      );
    },

    async release(ref, to, ours) {
      await sql.query(
        `UPDATE bus_reservations SET reserved_to = $4 WHERE group_id = $1 AND topic = $2 AND partition = $3 AND reserved_to = $5`,
        [...refParams(ref), to.toString(), ours.toString()],
      );
    },

    async recordAttempt(ref, offset, record) {
      await sql.query(
        `INSERT INTO bus_attempts (group_id, topic, partition, message_offset, attempts, in_flight, last_error) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (group_id, topic, partition, message_offset)
         DO UPDATE SET attempts = EXCLUDED.attempts, in_flight = EXCLUDED.in_flight, last_error = EXCLUDED.last_error, updated_at = now()`,
        [...refParams(ref), offset, record.attempts, record.inFlight, record.lastError],
      );
    },

    async forgetBelow(ref, offset) {
      await sql.query(
        `DELETE FROM bus_attempts WHERE group_id = $1 AND topic = $2 AND partition = $3 AND message_offset < $4`,
        [...refParams(ref), offset.toString()],
      );
    },

    async park(letter) {
      const { rows } = await sql.query(
        `INSERT INTO bus_dead_letters (group_id, topic, partition, message_offset, key, value, headers, attempts, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) ON CONFLICT DO NOTHING RETURNING id`,
        [
          letter.groupId,
          letter.topic,
          letter.partition,
          letter.offset,
          letter.key,
          letter.value,
          JSON.stringify(letter.headers),
          letter.attempts,
          letter.reason,
        ],
      );
      return rows.length > 0;
    },

    async list(query = {}) {
      const { rows } = await sql.query<{
        group_id: string;
        topic: string;
        partition: number;
        message_offset: string;
        key: string;
        value: string;
        headers: Record<string, string>;
        attempts: number;
        reason: string;
        parked_at: Date | string;
      }>(
        `SELECT group_id, topic, partition, message_offset::text, key, value, headers, attempts, reason, parked_at FROM bus_dead_letters
         WHERE ($1::text IS NULL OR group_id = $1) AND ($2::text IS NULL OR topic = $2) ORDER BY id DESC LIMIT $3`,
        [query.groupId ?? null, query.topic ?? null, query.limit ?? 100],
      );
      return rows.map((row) => ({
        groupId: row.group_id,
        topic: row.topic,
        partition: row.partition,
        offset: row.message_offset,
        key: row.key,
        value: row.value,
        headers: row.headers,
        attempts: row.attempts,
        reason: row.reason,
        parkedAt: new Date(row.parked_at),
      }));
    },
  };
}

/**
 * For a Kafka bus given no database (benches, tools): attempts are counted in this process only, so a
 * message that kills the process is not counted, and dead letters are kept in memory (still logged and
 * counted in metrics). The composition roots always give the bus the deployment's database.
 */
export function createMemoryDeliveryLedger(): DeliveryLedger {
  const id = (ref: PartitionRef) => `${ref.groupId}\u0000${ref.topic}\u0000${ref.partition}`;
  const attempts = new Map<string, Map<string, AttemptRecord>>();
  const letters: DeadLetter[] = [];
  const of = (ref: PartitionRef) => attempts.get(id(ref)) ?? attempts.set(id(ref), new Map()).get(id(ref))!;
  const forgetBelow = async (ref: PartitionRef, offset: bigint) => {
    for (const key of of(ref).keys()) if (BigInt(key) < offset) of(ref).delete(key);
  };
  return {
    async open(ref, from) {
      await forgetBelow(ref, from);
      return { reservedTo: null, attempts: new Map(of(ref)) };
    },
    async reserve() {},
    async release() {},
    async recordAttempt(ref, offset, record) {
      of(ref).set(offset, { ...record });
    },
    forgetBelow,
    async park(letter) {
      const same = (l: DeadLetter) =>
        l.groupId === letter.groupId &&
        l.topic === letter.topic &&
        l.partition === letter.partition &&
        l.offset === letter.offset;
      if (letters.some(same)) return false;
      letters.push({ ...letter, parkedAt: new Date() });
      return true;
    },
    async list(query = {}) {
      return letters
        .filter(
          (l) =>
            (query.groupId === undefined || l.groupId === query.groupId) &&
            (query.topic === undefined || l.topic === query.topic),
        )
        .reverse()
        .slice(0, query.limit ?? 100);
    },
  };
}
