import type { AllPosition, NewEvent, RecordedEvent } from '@kesher/contracts';

/**
 * What the writer believes about the stream. A bigint is the revision (0-based position) of the
 * stream's last event, as in EventStoreDB.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface AppendResult {
  /** Revision of the last event appended; pass it as the next expected revision. */
  nextExpectedRevision: bigint;
  /** Position of the last appended event in $all; read models can be awaited up to it. */
  position: AllPosition;
}

export interface AllFilter {
  eventTypes?: readonly string[];
  /** Stream categories (`assistant` for `assistant-…`). */
  categories?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omitted: from the start. */
  after?: AllPosition;
  maxCount?: number;
  filter?: AllFilter;
}

export interface AllBatch {
  events: RecordedEvent[];
  /**
   * Where the next read continues from (exclusive). It moves past events the filter left out, so a
   * filtered reader can checkpoint progress even when a batch holds nothing for it.
   */
  next: AllPosition;
  /** True when this read reached the end of what is currently visible. */
  atEnd: boolean;
}

export interface SubscribeOptions extends ReadAllOptions {
  /** Called with each batch; the next batch is read only after it resolves (back-pressure). */
  onBatch: (batch: AllBatch) => Promise<void>;
  /** A failing handler stops the subscription and is reported here. */
  onError?: (error: unknown) => void;
  /**
   * Live, after an append wakes it: wait this long before reading, so the appends of that moment arrive
   * as one batch (one transaction instead of one each) and the work leaves the moment of the append,
   * when a chat turn's next steps want the process. `hurry()` cuts the wait short. Adapters that are
   * pushed events rather than polling for them may ignore it.
   */
  batchDelayMs?: number;
}

export interface Subscription {
  stop(): Promise<void>;
  /**
   * Somebody waits for this subscription to reach `until`: read now rather than after `batchDelayMs`, and
   * keep re-reading shortly until past it (it may not be visible yet), as after an append's wake-up.
   */
  hurry?(until: AllPosition): void;
  /** Resolves once the subscription has stopped (after stop() or a handler error). */
  readonly stopped: Promise<void>;
}

export interface EventStore {
  readonly name: 'postgres' | 'pglite' | 'eventstoredb';
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Events of one stream in order; [] for a stream that does not exist; throws StreamDeletedError. */
  readStream(streamId: string, options?: { fromRevision?: bigint; maxCount?: number }): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<AllBatch>;
  /** Catch-up from `after`, then live. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Tombstones a stream: later appends and reads fail with StreamDeletedError. */
  deleteStream(streamId: string, options: { expectedRevision: ExpectedRevision }): Promise<void>;
  /**
   * Position of the newest committed event (START when empty), whether or not readers may take it yet: a
   * reader past it has everything committed when it was asked, so a wait for it never returns early.
   * Used for lag metrics and waits.
   */
  headPosition(): Promise<AllPosition>;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream' | 'unknown',
  ) {
    super(`wrong expected version on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export class StreamDeletedError extends Error {
  constructor(readonly streamId: string) {
    super(`stream ${streamId} is deleted`);
    this.name = 'StreamDeletedError';
  }
}
