/**
 * Publish/subscribe between Kesher's processes. Guarantees every adapter must give (and the shared
 * contract suite checks): at-least-once delivery to each consumer group, order preserved per key, and a
 * message's offset committed only after its handler resolved. A handler that throws gets the same
 * message again (after a back-off); it is never skipped. Handlers must therefore be idempotent.
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
  /** A group seen for the first time starts at the earliest message (default) or only new ones. */
  fromBeginning?: boolean;
}

export interface Consumer {
  stop(): Promise<void>;
}

export interface MessageBus {
  readonly name: 'kafka' | 'in-process';
  /** Resolves once the messages are durably accepted (acks from all in-sync replicas for Kafka). */
  publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void>;
  consume(options: ConsumeOptions): Promise<Consumer>;
  close(): Promise<void>;
}
