import { comparePositions, START_POSITION, type AllPosition } from '@kesher/contracts';
import type { Projection } from '@kesher/projections/projection';
import type { EventStore, Subscription } from '../event-store/event-store.port.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Sql } from '../sql/sql.port.js';
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
  position: AllPosition;
  subscription?: Subscription;
  caughtUp: boolean;
}

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

  async function prepare(projection: Projection): Promise<AllPosition> {
    return sql.transaction(async (tx) => {
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
        await sql.transaction(async (tx) => {
          if (batch.events.length > 0) await projection.apply(tx, batch.events);
          if (!(await advanceCheckpoint(tx, projection.name, state.position, batch.next))) throw new CheckpointMovedError();
        });
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
    state.position = await prepare(state.projection);
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
        const state: Running = { projection, position: await prepare(projection), caughtUp: false };
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
      running.clear();
      wakeWaiters();
    },

    /** Drops a projection's tables and rebuilds it from position zero, while the others keep running. */
    async rebuild(name: string) {
      const state = running.get(name);
      if (!state) throw new Error(`unknown projection ${name}`);
      await state.subscription?.stop();
      await sql.transaction(async (tx) => {
        await state.projection.reset(tx);
        await state.projection.setup(tx);
        await resetCheckpoint(tx, name, state.projection.version);
      });
      state.position = START_POSITION;
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
