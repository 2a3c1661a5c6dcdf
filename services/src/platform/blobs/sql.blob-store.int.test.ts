import { describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
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

const count = async (sql: Sql, table: 'blobs' | 'blob_holds') =>
  (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

/** Deleting frees the bytes: a blob goes with the last holder that refers to it, and only then. */
async function referenceCounting(sql: Sql) {
  const blobs = await createSqlBlobStore({ sql });
  const before = await count(sql, 'blobs');
  const shared = new TextEncoder().encode('the same bytes, uploaded twice');
  const own = new TextEncoder().encode('only file-b refers to these');
  const { sha256 } = await blobs.put(shared, { holder: 'file-a' });
  await blobs.put(shared, { holder: 'file-b' });
  await blobs.put(own, { holder: 'file-b' });
  expect(await count(sql, 'blobs')).toBe(before + 2);

  await blobs.release('file-b');
  expect(await count(sql, 'blobs')).toBe(before + 1);
  expect(await blobs.get(sha256)).toBeDefined();
  await blobs.release('file-b'); // idempotent
  await blobs.release('file-a');
  expect(await count(sql, 'blobs')).toBe(before);
  expect(await blobs.get(sha256)).toBeUndefined();
  expect(await count(sql, 'blob_holds')).toBe(0);
  // Stored again after its deletion: the bytes come back.
  await blobs.put(shared, { holder: 'file-c' });
  expect([...(await blobs.get(sha256))!]).toEqual([...shared]);
  await blobs.release('file-c');
}

/** An upload of the same bytes while the last holder is being released never loses them. */
async function concurrentUploadAndRelease(sql: Sql) {
  const blobs = await createSqlBlobStore({ sql });
  const bytes = new TextEncoder().encode('raced bytes');
  for (let round = 0; round < 25; round++) {
    const { sha256 } = await blobs.put(bytes, { holder: `old-${round}` });
    await Promise.all([blobs.release(`old-${round}`), blobs.put(bytes, { holder: `new-${round}` })]);
    expect(await blobs.get(sha256), `round ${round}`).toBeDefined();
    await blobs.release(`new-${round}`);
    expect(await blobs.get(sha256)).toBeUndefined();
  }
}

const gate = await postgresAvailability();
describe('SQL blob store', () => {
  it('stores bytes once by content on PGlite', async () => {
    const sql = await createTestPglite();
    await exercise(sql);
    await referenceCounting(sql);
    await concurrentUploadAndRelease(sql);
    await sql.close();
  });
  it.skipIf(!gate.available)(
    `stores bytes once by content on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`,
    async () => {
      const db = await createTestDatabase();
      const sql = createPgSql({ connectionString: db.url });
      await exercise(sql);
      await referenceCounting(sql);
      await concurrentUploadAndRelease(sql);
      await sql.close();
      await db.drop();
    },
  );
});
