import { comparePositions, START_POSITION, type AllPosition } from '@kesher/contracts';
import type { Projection } from '@kesher/projections/projection';
import type { EventStore, Subscription } from '../event-store/event-store.port.js';
import type { Metrics } from '../metrics/metrics.js';
import { SCHEMA_LOCK_KEY, type Sql } from '../sql/sql.port.js';
import { createPositionWaiters } from './position-waiters.js';
import { advanceCheckpoint, checkpointsSchema, readAllCheckpoints, readCheckpoint, resetCheckpoint } from './checkpoints.js';

export interface ProjectionRunnerDeps {
  eventStore: EventStore;
  /** The read-model database (the event store may live elsewhere, e.g. EventStoreDB). */
  sql: Sql;
  projections: readonly Projection[];
  metrics?: Metrics;
  batchSize?: number;
  onError?: (projection: string, error: unknown) => void;
}

class CheckpointMovedError extends Error {}

interface Running {
  projection: Projection;
  /** How far this projection has read (what waiters compare with). */
  position: AllPosition;
  /** The checkpoint as stored; behind `position` while only the horizon moved. */
  persisted: AllPosition;
  subscription?: Subscription;
  caughtUp: boolean;
  /** This projection's checkpoint writes, one after the other (batches, and the deferred write of a moved horizon). */
  writes: Promise<unknown>;
  deferred?: NodeJS.Timeout;
}

/**
 * A batch without events for a projection only moves its horizon. Writing that checkpoint at once would
 * cost a transaction per projection per append anywhere in the log (most of the database work of a chat
 * turn); it is written this long after instead, or with the next applied batch, or at stop. Re-reading
 * a stretch without events after a crash costs nothing, and read-your-writes waits only for the
 * projections that take the events written.
 */
const HORIZON_CHECKPOINT_DELAY_MS = 1000;

/**
 * Runs projections from the event log into their tables. Each projection has its own subscription and
 * checkpoint; a batch and its checkpoint commit together, so a crash at any moment resumes exactly
 * after the last committed batch. A projection whose version changed is dropped and rebuilt from zero.
 */
export function createProjectionRunner(deps: ProjectionRunnerDeps) {
  const { eventStore, sql, metrics } = deps;
  const batchSize = deps.batchSize ?? 500;
  const running = new Map<string, Running>();
  const waiters = createPositionWaiters();
  let stopping = false;
  let lagTimer: NodeJS.Timeout | undefined;

  const wakeWaiters = () => waiters.notify();

  function serially<T>(state: Running, work: () => Promise<T>): Promise<T> {
    const result = state.writes.then(work);
    state.writes = result.catch(() => {});
    return result;
  }

  function writeHorizon(state: Running) {
    clearTimeout(state.deferred);
    state.deferred = undefined;
    return serially(state, async () => {
      const target = state.position;
      if (comparePositions(target, state.persisted) <= 0) return;
      if (await advanceCheckpoint(sql, state.projection.name, state.persisted, target)) state.persisted = target;
      else if (!stopping) void restart(state.projection.name);
    }).catch((error) => deps.onError?.(state.projection.name, error));
  }

  function deferHorizon(state: Running) {
    if (state.deferred) return;
    state.deferred = setTimeout(() => void writeHorizon(state), HORIZON_CHECKPOINT_DELAY_MS);
    state.deferred.unref();
  }

  async function prepare(projection: Projection): Promise<AllPosition> {
    return sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
      await tx.query(checkpointsSchema);
      const checkpoint = await readCheckpoint(tx, projection.name);
      if (!checkpoint || checkpoint.version !== projection.version) {
        await projection.reset(tx);
        await projection.setup(tx);
        await resetCheckpoint(tx, projection.name, projection.version);
        return START_POSITION;
      }
      await projection.setup(tx);
      return checkpoint.position;
    });
  }

  function subscribe(state: Running) {
    const { projection } = state;
    state.subscription = eventStore.subscribeToAll({
      after: state.position,
      maxCount: batchSize,
      filter: { eventTypes: projection.eventTypes },
      onBatch: async (batch) => {
        if (batch.events.length > 0) {
          await serially(state, () =>
            sql.transaction(async (tx) => {
              await projection.apply(tx, batch.events);
              if (!(await advanceCheckpoint(tx, projection.name, state.persisted, batch.next))) throw new CheckpointMovedError();
            }),
          );
          state.persisted = batch.next;
        } else {
          deferHorizon(state);
        }
        state.position = batch.next;
        state.caughtUp = batch.atEnd;
        const newest = batch.events[batch.events.length - 1];
        metrics?.projectionLagSeconds.set({ projection: projection.name }, batch.atEnd || !newest ? 0 : (Date.now() - newest.createdAt.getTime()) / 1000);
        wakeWaiters();
      },
      onError: (error) => {
        if (stopping) return;
        // Someone else moved the checkpoint (a replay, a second projector): resume from what is stored.
        if (!(error instanceof CheckpointMovedError)) deps.onError?.(projection.name, error);
        setTimeout(() => void restart(projection.name), error instanceof CheckpointMovedError ? 0 : 1000);
      },
    });
  }

  async function restart(name: string) {
    const state = running.get(name);
    if (!state || stopping) return;
    await state.subscription?.stop();
    clearTimeout(state.deferred);
    state.deferred = undefined;
    state.position = state.persisted = await prepare(state.projection);
    subscribe(state);
  }

  async function reportLag() {
    const head = await eventStore.headPosition();
    for (const state of running.values()) {
      const behind = head.prepare - state.position.prepare;
      metrics?.projectionLag.set({ projection: state.projection.name }, Number(behind > 0n && !state.caughtUp ? behind : 0n));
    }
  }

  return {
    async start() {
      stopping = false;
      for (const projection of deps.projections) {
        const position = await prepare(projection);
        const state: Running = { projection, position, persisted: position, caughtUp: false, writes: Promise.resolve() };
        running.set(projection.name, state);
        subscribe(state);
      }
      if (metrics) {
        lagTimer = setInterval(() => void reportLag().catch(() => {}), 1000);
        lagTimer.unref();
      }
    },

    async stop() {
      stopping = true;
      clearInterval(lagTimer);
      await Promise.all([...running.values()].map((state) => state.subscription?.stop()));
      await Promise.all([...running.values()].map((state) => writeHorizon(state)));
      running.clear();
      wakeWaiters();
    },

    /** Drops a projection's tables and rebuilds it from position zero, while the others keep running. */
    async rebuild(name: string) {
      const state = running.get(name);
      if (!state) throw new Error(`unknown projection ${name}`);
      await state.subscription?.stop();
      clearTimeout(state.deferred);
      state.deferred = undefined;
      await serially(state, () =>
        sql.transaction(async (tx) => {
          await state.projection.reset(tx);
          await state.projection.setup(tx);
          await resetCheckpoint(tx, name, state.projection.version);
        }),
      );
      state.position = state.persisted = START_POSITION;
      state.caughtUp = false;
      subscribe(state);
    },

    /** Current checkpoint of each running projection. */
    positions(): Record<string, AllPosition> {
      return Object.fromEntries([...running].map(([name, state]) => [name, state.position]));
    },

    /**
     * Read-your-writes: resolves true once every named projection (default: all) has applied
     * everything up to `position`, false after `timeoutMs`.
     */
    waitForPosition(position: AllPosition, options: { projections?: readonly string[]; timeoutMs?: number } = {}): Promise<boolean> {
      const names = options.projections ?? [...running.keys()];
      const reached = () =>
        names.every((name) => {
          const state = running.get(name);
          return state !== undefined && comparePositions(state.position, position) >= 0;
        });
      return waiters.wait(reached, options.timeoutMs ?? 2000, () => stopping);
    },

    /** Resolves true once the named projection has moved past `since` (false after `timeoutMs`). */
    waitForMove(name: string, since: AllPosition | undefined, timeoutMs: number): Promise<boolean> {
      const moved = () => {
        const now = running.get(name)?.position;
        return now !== undefined && (since === undefined || comparePositions(now, since) > 0);
      };
      return waiters.wait(moved, timeoutMs, () => stopping);
    },
  };
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;

/**
 * Read-your-writes across processes (the API waiting on a separate projector): polls the stored
 * checkpoints until every named projection has passed `position`.
 */
export async function waitForCheckpoints(
  sql: Sql,
  names: readonly string[],
  position: AllPosition,
  { timeoutMs = 2000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const checkpoints = await readAllCheckpoints(sql);
    if (names.every((name) => checkpoints[name] && comparePositions(checkpoints[name], position) >= 0)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
