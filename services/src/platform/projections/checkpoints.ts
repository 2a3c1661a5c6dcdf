import type { AllPosition } from '@kesher/contracts';
import type { SqlExecutor } from '../sql/sql.port.js';

export interface Checkpoint {
  version: number;
  position: AllPosition;
}

export async function readCheckpoint(db: SqlExecutor, name: string): Promise<Checkpoint | undefined> {
  const { rows } = await db.query<{ version: number; commit_position: string; prepare_position: string }>(
    `SELECT version, commit_position::text AS commit_position, prepare_position::text AS prepare_position
     FROM projection_checkpoints WHERE name = $1`,
    [name],
  );
  const row = rows[0];
  return (
    row && {
      version: row.version,
      position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
    }
  );
}

/** Sets the checkpoint to `version` at `position` (default: before the first event). */
export async function resetCheckpoint(
  db: SqlExecutor,
  name: string,
  version: number,
  position: AllPosition = { commit: 0n, prepare: 0n },
): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, version, commit_position, prepare_position) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET version = $2, commit_position = $3, prepare_position = $4, updated_at = now()`,
    [name, version, position.commit.toString(), position.prepare.toString()],
  );
}

/**
 * Moves the checkpoint from `from` to `to`, only if nobody else moved it meanwhile (another projector
 * instance, or a replay). False means the batch must be rolled back and the runner must re-read.
 */
export async function advanceCheckpoint(
  db: SqlExecutor,
  name: string,
  from: AllPosition,
  to: AllPosition,
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE projection_checkpoints SET commit_position = $4, prepare_position = $5, updated_at = now()
     WHERE name = $1 AND commit_position = $2 AND prepare_position = $3 RETURNING name`,
    [name, from.commit.toString(), from.prepare.toString(), to.commit.toString(), to.prepare.toString()],
  );
  return rows.length === 1;
}

/** Every stored checkpoint; how a process without its own runner (the API) reports projection progress. */
export async function readAllCheckpoints(db: SqlExecutor): Promise<Record<string, AllPosition>> {
  const { rows } = await db
    .query<{ name: string; commit_position: string; prepare_position: string }>(
      `SELECT name, commit_position::text AS commit_position, prepare_position::text AS prepare_position FROM projection_checkpoints`,
    )
    .catch(() => ({ rows: [] as { name: string; commit_position: string; prepare_position: string }[] }));
  return Object.fromEntries(
    rows.map((row) => [row.name, { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) }]),
  );
}

/** The same compare-and-set as `advanceCheckpoint`, for many checkpoints in one statement. */
const ADVANCE_MANY = `UPDATE projection_checkpoints p
  SET commit_position = v.to_commit, prepare_position = v.to_prepare, updated_at = now()
  FROM unnest($1::text[], $2::numeric[], $3::bigint[], $4::numeric[], $5::bigint[])
    AS v(name, from_commit, from_prepare, to_commit, to_prepare)
  WHERE p.name = v.name AND p.commit_position = v.from_commit AND p.prepare_position = v.from_prepare
  RETURNING p.name`;

/** Moves many checkpoints at once, each only if it was where its move starts; resolves to the names moved. */
export async function advanceCheckpoints(
  db: SqlExecutor,
  moves: readonly { name: string; from: AllPosition; to: AllPosition }[],
): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>(ADVANCE_MANY, [
    moves.map((m) => m.name),
    moves.map((m) => m.from.commit.toString()),
    moves.map((m) => m.from.prepare.toString()),
    moves.map((m) => m.to.commit.toString()),
    moves.map((m) => m.to.prepare.toString()),
  ]);
  return new Set(rows.map((row) => row.name));
}
