import type { AllPosition } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import type { Sql } from '../sql/sql.port.js';
import { readAllCheckpoints } from './checkpoints.js';
import { createProgressBoard, type ProgressBoard } from './progress.js';

/**
 * How far the read models are, and a way to wait for them to move, for whoever must notice a change
 * without asking the database over and over (read-your-writes, the SSE route waiting for a run's end).
 * Take `position` before reading, then wait for a move past it: a change that lands between the read and
 * the wait is then never missed.
 *
 * Two sources, one shape: the projection runner of this process (`runner.progress`), or — when the
 * projector is another process — the checkpoints it stores (`createCheckpointWatcher`).
 */
export interface ReadModelProgress extends ProgressBoard {
  /** Where every read model is now (read from the stored checkpoints when the projector is elsewhere). */
  positions(): Promise<Record<string, AllPosition>>;
}

/**
 * Read-your-writes: resolves true once the read models have applied `position`. Given the types of the
 * events written, it waits only for the read models that take one of them — the others cannot show
 * the change, and their checkpoints only catch up with the log in their own time.
 *
 * False means the wait ran out: the write is committed but a read model may not show it yet. A caller
 * must then not read those read models as the write's result; on a request it marks the answer
 * (`readModelsPending` in api/command-runner.ts: `Kesher-Consistency: pending`) and answers from what
 * the command decided.
 */
export type AwaitReadModels = (position: AllPosition, eventTypes?: readonly string[]) => Promise<boolean>;

/** The names of the projections that take any of `eventTypes` (all of them when the types are unknown). */
export function projectionsTaking(
  projections: readonly Pick<Projection, 'name' | 'eventTypes'>[],
  eventTypes?: readonly string[],
): string[] {
  return projections
    .filter((p) => !eventTypes || eventTypes.some((type) => p.eventTypes.includes(type)))
    .map((p) => p.name);
}

/** The one read-your-writes wait, over either source: bounded by `timeoutMs`. */
export function readModelWaiter(deps: {
  readModels: ReadModelProgress;
  projections: readonly Pick<Projection, 'name' | 'eventTypes'>[];
  timeoutMs: number;
}): AwaitReadModels {
  return (position, eventTypes) =>
    deps.readModels.waitFor(projectionsTaking(deps.projections, eventTypes), position, deps.timeoutMs);
}

/**
 * The projector is another process (the API of the production topology): one loop per process reads the
 * stored checkpoints, only while somebody waits, and wakes every waiter — one query per tick however
 * many requests and open streams are waiting, instead of one each.
 */
export function createCheckpointWatcher(deps: {
  sql: Sql;
  intervalMs?: number;
}): ReadModelProgress & { close(): void } {
  const intervalMs = deps.intervalMs ?? 5;
  let looping = false;
  let closed = false;
  const board = createProgressBoard({ onWait: () => void loop() });

  async function loop() {
    if (looping) return;
    looping = true;
    try {
      while (board.waiting() > 0 && !closed) {
        board.reportAll(await readAllCheckpoints(deps.sql));
        if (board.waiting() > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    } finally {
      looping = false;
    }
  }

  return {
    position: board.position,
    waitFor: board.waitFor,
    waitForMove: board.waitForMove,
    async positions() {
      const positions = await readAllCheckpoints(deps.sql);
      board.reportAll(positions);
      return positions;
    },
    close() {
      closed = true;
      board.close();
    },
  };
}
