/**
 * Publish/subscribe between Kesher's processes. Guarantees every adapter must give (and the shared
 * contract suite checks): at-least-once delivery to each consumer group, order preserved per key, and a
 * message's offset committed only after its handler resolved (or it was parked), never past a message
 * still being handled. Handlers must therefore be idempotent.
 *
 * A handler that throws gets the same message again after a back-off, before any later message of its
 * key. After `maxAttempts` attempts — a throw, or a process that died while handling it, counted
 * durably so that a message that kills its consumer cannot crash-loop it — the message is parked: a
 * dead letter is stored with the reason, `onParked` is told, and the consumer moves on. See docs/bus.md.
 */
export interface OutgoingMessage {
  key: string;
  /** JSON text. */
  value: string;
  headers?: Record<string, string>;
}

export interface DeliveredMessage extends Required<OutgoingMessage> {
  topic: string;
  partition: number;
  /** Offset within the partition, as a decimal string. */
  offset: string;
}

export interface ConsumeOptions {
  groupId: string;
  topics: readonly string[];
  handler: (message: DeliveredMessage) => Promise<void>;
  /**
   * The event types this consumer handles (the `event-type` header the relay sets, event-types.ts). Other
   * messages are skipped without their value being read, and acknowledged like handled ones, so the
   * group's offset moves past them. A message without the header is handed over. Default: every message.
   */
  eventTypes?: readonly string[];
  /** A group seen for the first time starts at the earliest message (default) or only new ones. */
  fromBeginning?: boolean;
  /**
   * Messages handled at the same time by this consumer (default 1). Messages of one key are still
   * handled one at a time, in order; so are messages of one lane.
   */
  concurrency?: number;
  /**
   * Names the lane a message belongs to (default: its key). A lane is handled one message at a time,
   * in order, so one lane never holds more than one of the `concurrency` slots: the ingest worker's lane
   * is the file's owner, and one owner's ten uploads do not queue every other owner behind them. Order
   * per key holds whatever the lanes are.
   */
  laneOf?: (message: DeliveredMessage) => string;
  /** Handler attempts before the message is parked; the bus's setting (default 5) otherwise. */
  maxAttempts?: number;
  /**
   * Told once a message is parked, with the reason (the last error, or that the consumer died while
   * handling it). Runs before the consumer moves on, and again if the process dies before the parking
   * was committed, so it must be idempotent. Failures are retried a few times, then logged.
   */
  onParked?: (message: DeliveredMessage, reason: string) => Promise<void>;
}

export interface Consumer {
  stop(): Promise<void>;
}

/** A parked message, as kept for operators (and the contract tests). */
export interface DeadLetter {
  groupId: string;
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  attempts: number;
  reason: string;
  parkedAt: Date;
}

export interface MessageBus {
  readonly name: 'kafka' | 'in-process';
  /** Resolves once the messages are durably accepted (acks from all in-sync replicas for Kafka). */
  publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void>;
  consume(options: ConsumeOptions): Promise<Consumer>;
  /** Parked messages, newest first. */
  deadLetters(query?: { groupId?: string; topic?: string; limit?: number }): Promise<DeadLetter[]>;
  close(): Promise<void>;
}
