import { afterAll, describe, expect, it } from 'vitest';
import { schemaModules } from '../../main/schema-modules.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { MigrationChangedError, runMigrations, type SchemaModule } from './migrations.js';
import { createPgSql } from './pg.sql.js';
import { createPgliteSql } from './pglite.sql.js';
import type { Sql } from './sql.port.js';

const gate = await postgresAvailability();

/** A module whose second migration counts how often it ran: exactly-once shows in the table. */
const counted: SchemaModule = {
  module: 'counted',
  migrations: [
    { id: '001-table', sql: `CREATE TABLE counted (note text NOT NULL)` },
    { id: '002-row', sql: `INSERT INTO counted (note) VALUES ('applied'); ALTER TABLE counted ADD COLUMN extra int` },
  ],
};

const journal = async (sql: Sql) =>
  (await sql.query<{ module: string; id: string }>(`SELECT module, id FROM schema_migrations`)).rows
    .map((row) => `${row.module}/${row.id}`)
    .sort();

function contract(name: string, open: () => Promise<{ sql: Sql; close(): Promise<void> }>) {
  describe(`migrations on ${name}`, () => {
    it('applies each module’s list in order once, records it, and applies only what was added later', async () => {
      const { sql, close } = await open();
      try {
        expect(await runMigrations(sql, [counted])).toEqual({ counted: ['001-table', '002-row'] });
        expect(await runMigrations(sql, [counted])).toEqual({});
        const grown: SchemaModule = {
          ...counted,
          migrations: [...counted.migrations, { id: '003-index', sql: `CREATE INDEX counted_note ON counted (note)` }],
        };
        expect(await runMigrations(sql, [grown])).toEqual({ counted: ['003-index'] });
        expect(await journal(sql)).toEqual(['counted/001-table', 'counted/002-row', 'counted/003-index']);
        expect((await sql.query(`SELECT * FROM counted`)).rows).toEqual([{ note: 'applied', extra: null }]);
      } finally {
        await close();
      }
    });

    it('refuses an applied migration whose text changed, and a failing list leaves nothing applied', async () => {
      const { sql, close } = await open();
      try {
        await runMigrations(sql, [counted]);
        const edited: SchemaModule = {
          ...counted,
          migrations: [counted.migrations[0]!, { id: '002-row', sql: `SELECT 1` }],
        };
        await expect(runMigrations(sql, [edited])).rejects.toBeInstanceOf(MigrationChangedError);

        const broken: SchemaModule = {
          module: 'broken',
          migrations: [
            { id: '001-ok', sql: `CREATE TABLE broken_ok (n int)` },
            { id: '002-bad', sql: `CREATE TABLE broken_ok (n int)` },
          ],
        };
        await expect(runMigrations(sql, [broken])).rejects.toThrow(/already exists/);
        expect(await journal(sql)).not.toContain('broken/001-ok');
        expect((await sql.query(`SELECT to_regclass('broken_ok') AS t`)).rows[0]).toEqual({ t: null });
      } finally {
        await close();
      }
    });
  });
}

contract('PGlite (the embedded default)', async () => {
  const sql = await createPgliteSql();
  return { sql, close: () => sql.close() };
});

describe.skipIf(!gate.available)(`migrations on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  contract('Postgres', async () => {
    const db = await createTestDatabase('kesher_migrations', { empty: true });
    const sql = createPgSql({ connectionString: db.url, max: 2 });
    cleanups.push(db.drop);
    return { sql, close: () => sql.close() };
  });

  it('four processes starting together on a fresh database apply every migration exactly once', async () => {
    const db = await createTestDatabase('kesher_migrations', { empty: true });
    cleanups.push(db.drop);
    // One pool per process, as the api, relay, projector and workers of the production topology have.
    const processes = Array.from({ length: 4 }, () => createPgSql({ connectionString: db.url, max: 2 }));
    try {
      const modules = [...schemaModules({ sqlEventStore: true }), counted];
      const results = await Promise.all(processes.map((sql) => runMigrations(sql, modules)));
      // One of them applied everything; the others found it recorded.
      expect(results.filter((applied) => Object.keys(applied).length > 0)).toHaveLength(1);
      expect((await processes[0]!.query(`SELECT count(*)::int AS n FROM counted`)).rows[0]).toEqual({ n: 1 });
      const expected = modules
        .flatMap((schema) => schema.migrations.map((migration) => `${schema.module}/${migration.id}`))
        .sort();
      expect(await journal(processes[0]!)).toEqual(expected);
    } finally {
      await Promise.all(processes.map((sql) => sql.close()));
    }
  });
});
