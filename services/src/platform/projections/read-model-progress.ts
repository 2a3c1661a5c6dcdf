import { comparePositions, type AllPosition } from '@kesher/contracts';
import type { Sql } from '../sql/sql.port.js';
import { readAllCheckpoints } from './checkpoints.js';
import { createPositionWaiters } from './position-waiters.js';
import type { ProjectionRunner } from './projection-runner.js';
import type { Projection } from '@kesher/projections/projection';

/**
 * How far the read models are, and a way to wait for them to move, for whoever must notice a change
 * without asking the database over and over (read-your-writes, the SSE route waiting for a run's end).
 * Take `position` before reading, then wait for a move past it: a change that lands between the read and
 * the wait is then never missed.
 */
export interface ReadModelProgress {
  position(name: string): AllPosition | undefined;
  /** True once the named read model is past `since`; false after `timeoutMs`. */
  waitForMove(name: string, since: AllPosition | undefined, timeoutMs: number): Promise<boolean>;
  /** True once every named read model has applied `position`; false after `timeoutMs`. */
  waitFor(names: readonly string[], position: AllPosition, timeoutMs: number): Promise<boolean>;
}

/**
 * Read-your-writes: resolves once the read models have applied `position`. Given the types of the
 * events written, it waits only for the read models that take one of them — the others cannot show
 * the change, and their checkpoints only catch up with the log in their own time.
 */
export type AwaitReadModels = (position: AllPosition, eventTypes?: readonly string[]) => Promise<boolean>;

/** The names of the projections that take any of `eventTypes` (all of them when the types are unknown). */
export function projectionsTaking(projections: readonly Pick<Projection, 'name' | 'eventTypes'>[], eventTypes?: readonly string[]): string[] {
  return projections.filter((p) => !eventTypes || eventTypes.some((type) => p.eventTypes.includes(type))).map((p) => p.name);
}

/** The projector runs in this process: its own waiters wake us after each applied batch. */
export function runnerProgress(runner: ProjectionRunner): ReadModelProgress {
  return {
    position: (name) => runner.positions()[name],
    waitForMove: (name, since, timeoutMs) => runner.waitForMove(name, since, timeoutMs),
    waitFor: (names, position, timeoutMs) => runner.waitForPosition(position, { projections: names, timeoutMs }),
  };
}

/**
 * The projector is another process (the API of the production topology): one loop per process reads the
 * stored checkpoints, only while somebody waits, and wakes every waiter — one query per tick however
 * many requests and open streams are waiting, instead of one each.
 */
export function createCheckpointWatcher(deps: { sql: Sql; intervalMs?: number }): ReadModelProgress & { close(): void } {
  const intervalMs = deps.intervalMs ?? 5;
  const waiters = createPositionWaiters();
  let known: Record<string, AllPosition> = {};
  let waiting = 0;
  let looping = false;
  let closed = false;

  async function loop() {
    looping = true;
    try {
      while (waiting > 0 && !closed) {
        known = await readAllCheckpoints(deps.sql);
        waiters.notify();
        if (waiting > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    } finally {
      looping = false;
    }
  }

  async function watch(reached: () => boolean, timeoutMs: number): Promise<boolean> {
    if (reached()) return true;
    waiting++;
    if (!looping) void loop();
    try {
      return await waiters.wait(reached, timeoutMs, () => closed);
    } finally {
      waiting--;
    }
  }

  const past = (name: string, since: AllPosition | undefined, strictly: boolean) => {
    const now = known[name];
    if (now === undefined) return false;
    if (since === undefined) return true;
    const order = comparePositions(now, since);
    return strictly ? order > 0 : order >= 0;
  };

  return {
    position: (name) => known[name],
    waitForMove: (name, since, timeoutMs) => watch(() => past(name, since, true), timeoutMs),
    waitFor: (names, position, timeoutMs) => watch(() => names.every((name) => past(name, position, false)), timeoutMs),
    close() {
      closed = true;
      waiters.notify();
    },
  };
}
