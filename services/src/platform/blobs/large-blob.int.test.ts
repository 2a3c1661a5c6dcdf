import { describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, createTestPglite, postgresAvailability } from '../../testing/test-database.js';
import { BLOB_PART_BYTES, createSqlBlobStore } from './sql.blob-store.js';

const gate = await postgresAvailability();

/** Bytes a value carries to or from the database (base64 text counted as the bytes it encodes; `encode` breaks its lines). */
const bytesIn = (value: unknown) =>
  value instanceof Uint8Array
    ? value.byteLength
    : typeof value === 'string'
      ? Math.floor((value.replace(/[\s=]/g, '').length * 3) / 4)
      : 0;

/** The same database, noting the most bytes any single statement sent or got back. */
function measured(sql: Sql) {
  let largest = 0;
  const note = (values: readonly unknown[]) => values.forEach((value) => (largest = Math.max(largest, bytesIn(value))));
  const wrap = <T extends Pick<Sql, 'query'>>(executor: T): T =>
    Object.assign(Object.create(executor) as T, {
      async query<Row>(text: string, params?: readonly unknown[]) {
        note(params ?? []);
        const result = await executor.query<Row>(text, params);
        for (const row of result.rows as Record<string, unknown>[]) note(Object.values(row));
        return result;
      },
    });
  const wrapped: Sql = Object.assign(wrap(sql), {
    transaction: <T>(work: Parameters<Sql['transaction']>[0]) => sql.transaction((tx) => work(wrap(tx))) as Promise<T>,
  });
  return { sql: wrapped, largest: () => largest };
}

/**
 * On `make start` the database (PGlite) runs on the API's own thread: one statement carrying a 19.5 MB
 * upload froze every request for 19 s, and reading it back in one result did the same. On Postgres a 19 MB
 * result held the event loop for 100–300 ms (the driver gathering 38 MB of hex). Blobs are written and read
 * in parts of 64 KiB instead, one statement each, so no statement carries more than one part.
 */
async function writesAndReadsLargeBlobsInParts(database: Sql, size: number) {
  const { sql, largest } = measured(database);
  const blobs = await createSqlBlobStore({ sql });
  const bytes = new Uint8Array(size);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
  const { sha256 } = await blobs.put(bytes, { holder: 'big-file' });
  const read = await blobs.get(sha256);
  expect(read!.equals(Buffer.from(bytes))).toBe(true);
  expect(largest()).toBeGreaterThan(0);
  expect(largest()).toBeLessThanOrEqual(BLOB_PART_BYTES);
  const small = await blobs.put(new Uint8Array([1, 2, 3]));
  expect([...(await blobs.get(small.sha256))!]).toEqual([1, 2, 3]);
  expect(await blobs.get('0'.repeat(64))).toBeUndefined();
  await blobs.release('big-file');
}

describe('large blobs are written and read in parts', () => {
  it.skipIf(!gate.available)(`on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    try {
      await writesAndReadsLargeBlobsInParts(sql, 19 * 1024 * 1024 + 123);
    } finally {
      await sql.close();
      await db.drop();
    }
  });

  it('on PGlite, the embedded default', async () => {
    const sql = await createTestPglite();
    try {
      await writesAndReadsLargeBlobsInParts(sql, 20 * 1024 * 1024 + 7);
    } finally {
      await sql.close();
    }
  });
});
