import { createPgSql } from '../../sql/pg.sql.js';
import type { Sql } from '../../sql/sql.port.js';
import { createTestDatabase } from '../../../testing/test-database.js';

/**
 * Two "replicas" for the shared-limits tests: a fresh Postgres database with every migration applied and
 * two separate connection pools on it, as two API processes have. What one pool counts, the other must see.
 */
export async function twoReplicas(): Promise<{ a: Sql; b: Sql; close(): Promise<void> }> {
  const db = await createTestDatabase('kesher_limits');
  const a = createPgSql({ connectionString: db.url, max: 3 });
  const b = createPgSql({ connectionString: db.url, max: 3 });
  return {
    a,
    b,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await db.drop();
    },
  };
}
