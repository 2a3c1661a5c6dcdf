import type { AllPosition } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Metrics } from '../metrics/metrics.js';
import { applyMigrations, forgetMigrations } from '../sql/migrations.js';
import type { Sql, SqlTransaction } from '../sql/sql.port.js';
import { commitTogether } from './batch-commits.js';
import { createCheckpointedSubscription, type CheckpointedSubscription } from './checkpointed-subscription.js';
import { createProgressBoard } from './progress.js';
import type { ReadModelProgress } from './read-model-progress.js';

export interface ProjectionRunnerDeps {
  eventStore: EventStore;
  /** The read-model database (the event store may live elsewhere, e.g. EventStoreDB). */
  sql: Sql;
  projections: readonly Projection[];
  metrics?: Metrics;
  batchSize?: number;
  /**
   * Live, how long a read model lets an append's wake-up wait before it reads (0: at once). Appends of
   * that moment then make one batch, and the work leaves the moment of the append, when a chat turn's
   * next steps (the run, the worker) want the process. Whoever waits for a read model in this process
   * (read-your-writes) hurries it, so only readers nobody waits for are late, and by at most this long.
   */
  batchDelayMs?: number;
  onError?: (projection: string, error: unknown) => void;
}

/**
 * A batch without events for a projection only moves its horizon. Writing that checkpoint at once would
 * cost a transaction per projection per append anywhere in the log (most of the database work of a chat
 * turn); it is written this long after instead, or with the next applied batch, or at stop. Re-reading
 * a stretch without events after a crash costs nothing, and read-your-writes waits only for the
 * projections that take the events written.
 */
const HORIZON_CHECKPOINT_DELAY_MS = 1000;

/** The key a read model's migrations are recorded under; forgotten when its tables are dropped. */
export const readModelSchema = (projection: Pick<Projection, 'name' | 'migrations'>) => ({
  module: `read-model:${projection.name}`,
  migrations: projection.migrations,
});

/**
 * A read model's schema, inside the transaction that loads its checkpoint: starting over (a new version,
 * a replay) drops its tables and applies its migration list from the first; otherwise only the
 * migrations added since are applied.
 */
export async function prepareReadModel(tx: SqlTransaction, projection: Projection, fresh: boolean) {
  const schema = readModelSchema(projection);
  if (fresh) {
    if (projection.tables.length > 0) await tx.exec(`DROP TABLE IF EXISTS ${projection.tables.join(', ')} CASCADE`);
    await forgetMigrations(tx, schema.module);
  }
  await applyMigrations(tx, schema);
}

/**
 * Runs projections from the event log into their tables, one checkpointed subscription each (see
 * checkpointed-subscription.ts): a batch and its checkpoint commit together, so a crash at any moment
 * resumes exactly after the last committed batch. A projection whose version changed is dropped and
 * rebuilt from zero.
 */
export function createProjectionRunner(deps: ProjectionRunnerDeps) {
  const { eventStore, sql, metrics } = deps;
  const running = new Map<string, CheckpointedSubscription>();
  // The read models woken by one append write their batches and checkpoints in one transaction (batch-commits.ts).
  const commit = commitTogether(sql);
  const progress = createProgressBoard({
    onWaitFor: (names, position) => names.forEach((name) => running.get(name)?.hurry(position)),
  });
  let lagTimer: NodeJS.Timeout | undefined;

  function subscriptionFor(projection: Projection) {
    return createCheckpointedSubscription({
      name: projection.name,
      version: projection.version,
      eventStore,
      sql,
      commit,
      filter: { eventTypes: projection.eventTypes },
      batchSize: deps.batchSize,
      batchDelayMs: deps.batchDelayMs,
      handler: { apply: (tx, events) => projection.apply(tx, events) },
      prepare: (tx, fresh) => prepareReadModel(tx, projection, fresh),
      checkpointDelayMs: HORIZON_CHECKPOINT_DELAY_MS,
      progress,
      onBatch: (batch) => {
        const newest = batch.events[batch.events.length - 1];
        metrics?.projectionLagSeconds.set(
          { projection: projection.name },
          batch.atEnd || !newest ? 0 : (Date.now() - newest.createdAt.getTime()) / 1000,
        );
      },
      onError: (error) => deps.onError?.(projection.name, error),
    });
  }

  async function reportLag() {
    // Caught up means nothing behind: no need to ask the log where its head is (a statement a second, idle or not).
    if ([...running.values()].every((subscription) => subscription.caughtUp())) {
      for (const subscription of running.values()) metrics?.projectionLag.set({ projection: subscription.name }, 0);
      return;
    }
    const head = await eventStore.headPosition();
    for (const subscription of running.values()) {
      const behind = head.prepare - subscription.position().prepare;
      metrics?.projectionLag.set(
        { projection: subscription.name },
        Number(behind > 0n && !subscription.caughtUp() ? behind : 0n),
      );
    }
  }

  const readModels: ReadModelProgress = {
    position: (name) => progress.position(name),
    positions: async () => progress.known(),
    waitFor: (names, position, timeoutMs) => progress.waitFor(names, position, timeoutMs),
    waitForMove: (name, since, timeoutMs) => progress.waitForMove(name, since, timeoutMs),
  };

  return {
    /** Starts every projection from its checkpoint; those named in `rebuild` start over from the first event. */
    async start(options: { rebuild?: readonly string[] } = {}) {
      progress.open();
      for (const projection of deps.projections) {
        const subscription = subscriptionFor(projection);
        running.set(projection.name, subscription);
        await subscription.start({ fresh: options.rebuild?.includes(projection.name) ?? false });
      }
      if (metrics) {
        lagTimer = setInterval(() => void reportLag().catch(() => {}), 1000);
        lagTimer.unref();
      }
    },

    async stop() {
      clearInterval(lagTimer);
      await Promise.all([...running.values()].map((subscription) => subscription.stop()));
      running.clear();
      progress.close();
    },

    /** Drops a projection's tables and rebuilds it from position zero, while the others keep running. */
    async rebuild(name: string) {
      const subscription = running.get(name);
      if (!subscription) throw new Error(`unknown projection ${name}`);
      await subscription.rebuild();
    },

    /** Current position of each running projection. */
    positions(): Record<string, AllPosition> {
      return progress.known();
    },

    /** How far the read models are, and waiting for them (the API of this process reads through it). */
    progress: readModels,

    /**
     * Read-your-writes: resolves true once every named projection (default: all) has applied
     * everything up to `position`, false after `timeoutMs`.
     */
    waitForPosition(
      position: AllPosition,
      options: { projections?: readonly string[]; timeoutMs?: number } = {},
    ): Promise<boolean> {
      return progress.waitFor(options.projections ?? [...running.keys()], position, options.timeoutMs ?? 2000);
    },

    /** Resolves true once the named projection has moved past `since` (false after `timeoutMs`). */
    waitForMove(name: string, since: AllPosition | undefined, timeoutMs: number): Promise<boolean> {
      return progress.waitForMove(name, since, timeoutMs);
    },
  };
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;
