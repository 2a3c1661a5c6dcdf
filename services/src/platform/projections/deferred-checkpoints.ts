import type { AllPosition } from '@kesher/contracts';
import type { SqlExecutor } from '../sql/sql.port.js';
import { gatheredEachTurn } from '../process/this-turn.js';
import { advanceCheckpoints } from './checkpoints.js';

interface Move {
  name: string;
  from: AllPosition;
  to: AllPosition;
  resolve: (moved: boolean) => void;
  reject: (error: unknown) => void;
}

const writers = new WeakMap<SqlExecutor, (name: string, from: AllPosition, to: AllPosition) => Promise<boolean>>();

/**
 * Deferred checkpoint writes (a subscription's position after batches that wrote nothing of theirs) of
 * one process, made together: each of the projector's dozens of readers used to write its own a second
 * after it moved, about one statement a chat turn in all. Writes asked for in the same turn of the event
 * loop go in one UPDATE; each is still a compare-and-set of its own (false: another reader moved it).
 * The readers' timers are aligned to the same grid (`alignedDelay`), so their writes meet.
 */
export function deferredCheckpointWriter(sql: SqlExecutor) {
  let writer = writers.get(sql);
  if (writer) return writer;
  const move = gatheredEachTurn((moves: Move[]) => {
    advanceCheckpoints(sql, moves).then(
      (moved) => moves.forEach((m) => m.resolve(moved.has(m.name))),
      (error: unknown) => moves.forEach((m) => m.reject(error)),
    );
  });
  writer = (name, from, to) => new Promise<boolean>((resolve, reject) => move({ name, from, to, resolve, reject }));
  writers.set(sql, writer);
  return writer;
}
