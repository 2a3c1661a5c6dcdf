import { describe, expect, it } from 'vitest';
import { createPgliteSql } from '../sql/pglite.sql.js';
import { createPgSql } from '../sql/pg.sql.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createSqlBlobStore } from './sql.blob-store.js';
import type { Sql } from '../sql/sql.port.js';

async function exercise(sql: Sql) {
  const blobs = await createSqlBlobStore({ sql });
  const bytes = new Uint8Array([0, 1, 2, 255, 0x27, 0x5c]);
  const first = await blobs.put(bytes);
  const again = await blobs.put(bytes);
  expect(again).toEqual(first);
  expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
  expect([...(await blobs.get(first.sha256))!]).toEqual([...bytes]);
  expect(await blobs.get('0'.repeat(64))).toBeUndefined();
  const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM blobs`);
  expect(rows[0]!.n).toBe(1);
}

const gate = await postgresAvailability();
describe('SQL blob store', () => {
  it('stores bytes once by content on PGlite', async () => {
    const sql = await createPgliteSql();
    await exercise(sql);
    await sql.close();
  });
  it.skipIf(!gate.available)(`stores bytes once by content on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    await exercise(sql);
    await sql.close();
    await db.drop();
  });
});
