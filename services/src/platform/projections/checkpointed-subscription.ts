import { comparePositions, START_POSITION, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import type { AllBatch, AllFilter, EventStore, Subscription } from '../event-store/event-store.port.js';
import { SCHEMA_LOCK_KEY, type Sql, type SqlExecutor, type SqlTransaction } from '../sql/sql.port.js';
import { commitAlone, CheckpointMovedError, type CommitBatch } from './batch-commits.js';
import { readCheckpoint, resetCheckpoint } from './checkpoints.js';
import { alignedDelay } from '../process/clock-grid.js';
import { deferredCheckpointWriter } from './deferred-checkpoints.js';
import { isConnectionLost } from './connection-lost.js';
import type { ReportingProgressBoard } from './progress.js';

/**
 * What a batch does:
 * - `apply` writes into the same database as the checkpoint, in the transaction that moves it: each
 *   batch takes effect exactly once, whatever crashes (the projection runner's read models);
 * - `deliver` hands the batch elsewhere (the relay → Kafka); the checkpoint follows once delivery
 *   resolved, so a crash re-delivers from the last written checkpoint: at least once, and consumers drop
 *   duplicates by event id.
 */
export type BatchHandler =
  | { apply(tx: SqlExecutor, events: readonly RecordedEvent[]): Promise<void> }
  | { deliver(events: readonly RecordedEvent[]): Promise<void> };

export interface CheckpointedSubscriptionDeps {
  /** The checkpoint's name: one reader per name per database. */
  name: string;
  /** Bumping it makes the reader start over from the first event (after `prepare(tx, true)`). */
  version: number;
  eventStore: EventStore;
  /** Where the checkpoint is kept (the event log itself may be elsewhere, e.g. EventStoreDB). */
  sql: Sql;
  /**
   * How an applied batch commits with its checkpoint (default: a transaction each); the projection runner
   * commits its read models' batches together (batch-commits.ts).
   */
  commit?: CommitBatch;
  filter?: AllFilter;
  batchSize?: number;
  handler: BatchHandler;
  /**
   * Runs in the transaction that loads the checkpoint, under the schema lock, before reading: `fresh`
   * when the reader starts over (no checkpoint, another version, a rebuild) — the place to drop and
   * recreate what it builds.
   */
  prepare?(tx: SqlTransaction, fresh: boolean): Promise<void>;
  /**
   * Where a reader with no checkpoint at all begins (default: the first event); a rebuild or a new version
   * still starts over from the first event. The AI runner's log feed begins at the log's newest event.
   */
  firstStart?(): Promise<AllPosition>;
  /**
   * A position not written by an `apply` transaction (a `deliver` batch, or a batch the filter left empty)
   * is written this long after, or with the next applied batch, or at stop: one write for a moment's
   * worth of batches. A crash in between only re-reads that stretch.
   */
  checkpointDelayMs: number;
  /** Live, how long an append's wake-up waits before the read, so the moment's appends make one batch (see SubscribeOptions). */
  batchDelayMs?: number;
  /** Where the reader's position is reported after each batch (what waiters compare with). */
  progress: ReportingProgressBoard;
  /** After a failing batch or read: resume from the stored checkpoint this much later. */
  retryDelayMs?: number;
  /**
   * At start, a lost database session (ended by the server, a failover) is tried again every
   * `retryDelayMs` for this long (default 60 s) before start fails; other errors fail it at once.
   */
  startRetryMs?: number;
  onBatch?(batch: AllBatch): void;
  onError?(error: unknown): void;
}

/**
 * The one way Kesher follows the event log durably: load a named, versioned checkpoint, catch up and
 * follow live from it, and move it with each batch — so a restart, a crash or a failing batch resumes
 * after the last batch written. If another reader moves the same checkpoint (a replay, a second
 * projector or relay), this one notices on its next write and resumes from what is stored.
 */
export function createCheckpointedSubscription(deps: CheckpointedSubscriptionDeps) {
  const { name, sql } = deps;
  const commit = deps.commit ?? commitAlone(sql);
  const retryDelayMs = deps.retryDelayMs ?? 1000;
  const advanceDeferred = deferredCheckpointWriter(sql);
  /** How far batches were handled: what waiters compare with. */
  let position: AllPosition = START_POSITION;
  /** The checkpoint as stored; behind `position` while a deferred write is pending. */
  let persisted: AllPosition = START_POSITION;
  let caughtUp = false;
  let subscription: Subscription | undefined;
  let stopping = true;
  let deferred: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;
  /** Checkpoint writes, one after the other (applied batches and deferred writes). */
  let writes: Promise<unknown> = Promise.resolve();

  function serially<T>(work: () => Promise<T>): Promise<T> {
    const result = writes.then(work);
    writes = result.catch(() => {});
    return result;
  }

  async function load(forceFresh: boolean): Promise<AllPosition> {
    // Asked before the transaction: on PGlite a read outside it would wait for it to end.
    const firstStart = !forceFresh && deps.firstStart ? await deps.firstStart() : START_POSITION;
    return sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
      const checkpoint = await readCheckpoint(tx, name);
      const fresh = forceFresh || !checkpoint || checkpoint.version !== deps.version;
      await deps.prepare?.(tx, fresh);
      if (!fresh) return checkpoint!.position;
      const from = checkpoint ? START_POSITION : firstStart;
      await resetCheckpoint(tx, name, deps.version, from);
      return from;
    });
  }

  function writeCheckpoint() {
    clearTimeout(deferred);
    deferred = undefined;
    return serially(async () => {
      const target = position;
      if (comparePositions(target, persisted) <= 0) return;
      if (await advanceDeferred(name, persisted, target)) persisted = target;
      else if (!stopping) void restart();
    }).catch((error) => deps.onError?.(error));
  }

  function deferCheckpoint() {
    if (deferred) return;
    // On the process's shared grid: every reader's deferred write of the moment goes in one statement.
    deferred = setTimeout(() => void writeCheckpoint(), alignedDelay(deps.checkpointDelayMs));
    deferred.unref();
  }

  async function onBatch(batch: AllBatch) {
    const { handler } = deps;
    if ('apply' in handler && batch.events.length > 0) {
      await serially(() => commit((tx) => handler.apply(tx, batch.events), { name, from: persisted, to: batch.next }));
      persisted = batch.next;
    } else {
      if ('deliver' in handler && batch.events.length > 0) await handler.deliver(batch.events);
      deferCheckpoint();
    }
    position = batch.next;
    caughtUp = batch.atEnd;
    deps.onBatch?.(batch);
    deps.progress.report(name, position);
  }

  function subscribe() {
    subscription = deps.eventStore.subscribeToAll({
      after: position,
      maxCount: deps.batchSize ?? 500,
      ...(deps.filter ? { filter: deps.filter } : {}),
      ...(deps.batchDelayMs ? { batchDelayMs: deps.batchDelayMs } : {}),
      onBatch,
      onError: (error) => {
        if (stopping) return;
        if (error instanceof CheckpointMovedError) return void restart();
        deps.onError?.(error);
        retryTimer = setTimeout(() => void restart(), retryDelayMs);
      },
    });
  }

  async function begin(forceFresh: boolean) {
    clearTimeout(deferred);
    deferred = undefined;
    await writes;
    position = persisted = await load(forceFresh);
    caughtUp = false;
    deps.progress.report(name, position);
    subscribe();
  }

  /** Resumes from the stored checkpoint (after an error, or when another reader moved it). */
  function restart(): Promise<void> {
    restarting ??= (async () => {
      try {
        clearTimeout(retryTimer);
        await subscription?.stop();
        if (!stopping) await begin(false);
      } catch (error) {
        deps.onError?.(error);
        if (!stopping) retryTimer = setTimeout(() => void restart(), retryDelayMs);
      } finally {
        restarting = undefined;
      }
    })();
    return restarting;
  }

  return {
    name,
    /** Resumes from the checkpoint; `{ fresh: true }` starts over from the first event (a replay). */
    async start(options: { fresh?: boolean } = {}) {
      stopping = false;
      // A session ended while the checkpoint loads (a restarted or failed-over database) is not a reason
      // for the process to exit: load again on a new session, as restart() does once running. A wrong
      // schema or a refused migration still fails the start.
      const giveUpAt = Date.now() + (deps.startRetryMs ?? 60_000);
      for (;;) {
        try {
          return await begin(options.fresh ?? false);
        } catch (error) {
          if (stopping || !isConnectionLost(error) || Date.now() >= giveUpAt) throw error;
          deps.onError?.(error);
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        }
      }
    },
    /** Stops reading and writes the checkpoint of what was handled. */
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      await restarting;
      await subscription?.stop();
      await writeCheckpoint();
      deps.progress.forget(name);
    },
    /** Starts over from the first event, `prepare(tx, true)` first (drop and recreate what it builds). */
    async rebuild() {
      await restarting;
      await subscription?.stop();
      await begin(true);
    },
    position: () => position,
    caughtUp: () => caughtUp,
    /** Somebody waits for this reader: skip the batching delay (see SubscribeOptions.batchDelayMs). */
    hurry: (until: AllPosition) => subscription?.hurry?.(until),
  };
}

export type CheckpointedSubscription = ReturnType<typeof createCheckpointedSubscription>;
