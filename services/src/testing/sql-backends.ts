import { describe, it } from 'vitest';
import { createPgSql } from '../platform/sql/pg.sql.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { createTestDatabase, createTestPglite, postgresAvailability } from './test-database.js';

export type OpenSql = () => Promise<{ sql: Sql; close: () => Promise<void> }>;

/**
 * Runs a read-model suite on both SQL backends Kesher ships: in-memory PGlite (the embedded default) and
 * a fresh Postgres database. Without Postgres, outside CI, the Postgres half is reported as not run with
 * the reason in its title (in CI the gate fails the run instead).
 */
export async function onEverySqlBackend(subject: string, suite: (backend: string, open: OpenSql) => void) {
  suite('PGlite', async () => {
    const sql = await createTestPglite();
    return { sql, close: () => sql.close() };
  });
  const gate = await postgresAvailability();
  if (!gate.available) {
    describe.skipIf(true)(`${subject} on Postgres (not run: ${gate.reason})`, () => {
      it('needs Postgres', () => {});
    });
    return;
  }
  suite('Postgres', async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    return {
      sql,
      close: async () => {
        await sql.close();
        await db.drop();
      },
    };
  });
}
