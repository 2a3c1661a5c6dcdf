import type { AllPosition } from '@kesher/contracts';
import { gatheredEachTurn } from '../process/this-turn.js';
import type { Sql, SqlTransaction } from '../sql/sql.port.js';
import { advanceCheckpoint, advanceCheckpoints } from './checkpoints.js';

/** A reader's checkpoint moving from where it is stored to the end of the batch it applied. */
export interface CheckpointMove {
  name: string;
  from: AllPosition;
  to: AllPosition;
}

/** Another reader (a replay, a second projector) moved the checkpoint: the batch was rolled back. */
export class CheckpointMovedError extends Error {
  constructor(name: string) {
    super(`the checkpoint ${name} was moved by another reader`);
  }
}

/**
 * How a reader's batch and its checkpoint commit: together or not at all, so each batch takes effect
 * exactly once whatever crashes. Rejects with CheckpointMovedError when the stored checkpoint was not at
 * `move.from` (nothing of the batch is then written).
 */
export type CommitBatch = (apply: (tx: SqlTransaction) => Promise<void>, move: CheckpointMove) => Promise<void>;

/** Each batch in a transaction of its own. */
export function commitAlone(sql: Pick<Sql, 'transaction'>): CommitBatch {
  return (apply, move) =>
    sql.transaction(async (tx) => {
      await apply(tx);
      if (!(await advanceCheckpoint(tx, move.name, move.from, move.to))) throw new CheckpointMovedError(move.name);
    });
}

interface Waiting {
  apply: (tx: SqlTransaction) => Promise<void>;
  move: CheckpointMove;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Why a shared transaction was rolled back when only its checkpoint moves failed (each is then tried alone). */
class SomeCheckpointMoved extends Error {}

/**
 * The read models woken by one append apply their batches in one transaction, and their checkpoints move
 * in one statement at its end: before, each read model sent its own checkpoint UPDATE inside the shared
 * transaction, about four round trips of every chat turn. Batches asked for in the same turn of the event
 * loop go together. When anything fails (a projection's bug, a checkpoint another reader moved), the shared
 * transaction rolls back and each batch runs again alone, so one failure fails only its own reader.
 */
export function commitTogether(sql: Pick<Sql, 'transaction'>): CommitBatch {
  const alone = commitAlone(sql);

  const runAlone = (waiting: Waiting) => alone(waiting.apply, waiting.move).then(waiting.resolve, waiting.reject);

  async function flush(batches: Waiting[]) {
    if (batches.length === 1) return runAlone(batches[0]!);
    try {
      await sql.transaction(async (tx) => {
        for (const batch of batches) await batch.apply(tx);
        const moved = await advanceCheckpoints(
          tx,
          batches.map((batch) => batch.move),
        );
        if (moved.size < batches.length) throw new SomeCheckpointMoved();
      });
    } catch {
      await Promise.all(batches.map(runAlone));
      return;
    }
    batches.forEach((batch) => batch.resolve());
  }

  const ask = gatheredEachTurn((batches: Waiting[]) => void flush(batches));
  return (apply, move) => new Promise<void>((resolve, reject) => ask({ apply, move, resolve, reject }));
}
