import type { AllPosition } from '@kesher/contracts';
import type { SqlExecutor } from '../sql/sql.port.js';
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
  let gathering: Move[] | undefined;
  const flush = (moves: Move[]) => {
    advanceCheckpoints(sql, moves).then(
      (moved) => moves.forEach((move) => move.resolve(moved.has(move.name))),
      (error: unknown) => moves.forEach((move) => move.reject(error)),
    );
  };
  writer = (name, from, to) =>
    new Promise<boolean>((resolve, reject) => {
      if (!gathering) {
        const moves: Move[] = [];
        gathering = moves;
        setImmediate(() => {
          gathering = undefined;
          flush(moves);
        });
      }
      gathering.push({ name, from, to, resolve, reject });
    });
  writers.set(sql, writer);
  return writer;
}
