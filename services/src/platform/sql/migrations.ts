import { createHash } from 'node:crypto';
import type { Migration } from '@kesher/contracts/ports/projection';
import { SCHEMA_LOCK_KEY, type Sql, type SqlTransaction } from './sql.port.js';

export type { Migration };

/** A module's schema: its name (the key its migrations are recorded under) and its ordered migration list. */
export interface SchemaModule {
  module: string;
  migrations: readonly Migration[];
}

const JOURNAL = /* sql */ `CREATE TABLE IF NOT EXISTS schema_migrations (
  module text NOT NULL,
  id text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (module, id)
)`;

export class MigrationChangedError extends Error {
  constructor(
    readonly module: string,
    readonly id: string,
  ) {
    super(
      `migration ${module}/${id} was changed after it was applied; add a new migration instead of editing an applied one`,
    );
    this.name = 'MigrationChangedError';
  }
}

const checksumOf = (migration: Migration) => createHash('sha256').update(migration.sql).digest('hex');

function checkIds(schema: SchemaModule) {
  const seen = new Set<string>();
  for (const { id } of schema.migrations) {
    if (seen.has(id)) throw new Error(`migration ${schema.module}/${id} appears twice in its list`);
    seen.add(id);
  }
}

/**
 * Applies, inside `tx`, the migrations of `schema` that are not recorded yet, in list order, and records
 * them. The caller holds the schema lock. Returns the ids applied.
 */
export async function applyMigrations(tx: SqlTransaction, schema: SchemaModule): Promise<string[]> {
  checkIds(schema);
  await tx.exec(JOURNAL);
  const { rows } = await tx.query<{ id: string; checksum: string }>(
    `SELECT id, checksum FROM schema_migrations WHERE module = $1`,
    [schema.module],
  );
  const applied = new Map(rows.map((row) => [row.id, row.checksum]));
  const done: string[] = [];
  for (const migration of schema.migrations) {
    const checksum = checksumOf(migration);
    const recorded = applied.get(migration.id);
    if (recorded !== undefined) {
      if (recorded !== checksum) throw new MigrationChangedError(schema.module, migration.id);
      continue;
    }
    await tx.exec(migration.sql);
    await tx.query(`INSERT INTO schema_migrations (module, id, checksum) VALUES ($1, $2, $3)`, [
      schema.module,
      migration.id,
      checksum,
    ]);
    done.push(migration.id);
  }
  return done;
}

/** Forgets that a module's migrations were applied (a read model whose tables were dropped for a rebuild). */
export async function forgetMigrations(tx: SqlTransaction, module: string): Promise<void> {
  await tx.exec(JOURNAL);
  await tx.query(`DELETE FROM schema_migrations WHERE module = $1`, [module]);
}

/**
 * What every composition root runs before it builds anything on the database: each module's migration
 * list, modules in the given order, each migration once, recorded in `schema_migrations`. All of it is
 * one transaction under the schema advisory lock, so processes starting together on a fresh database
 * (the production topology's api, relay, projector and workers) apply each migration exactly once — the
 * others wait, then find it recorded — and a failing migration leaves nothing half-applied.
 *
 * The first migration of each module was written with `IF NOT EXISTS`, so databases created before the
 * journal existed adopt it on their next start without error.
 */
export async function runMigrations(sql: Sql, modules: readonly SchemaModule[]): Promise<Record<string, string[]>> {
  const names = new Set<string>();
  for (const { module } of modules) {
    if (names.has(module)) throw new Error(`schema module ${module} is listed twice`);
    names.add(module);
  }
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    const applied: Record<string, string[]> = {};
    for (const schema of modules) {
      const done = await applyMigrations(tx, schema);
      if (done.length > 0) applied[schema.module] = done;
    }
    return applied;
  });
}
