import { describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, createTestPglite, postgresAvailability } from '../../testing/test-database.js';
import { createSqlBlobStore } from './sql.blob-store.js';

const gate = await postgresAvailability();

/** The same database, noting the largest bytea any single query result carried. */
function measured(sql: Sql) {
  let largest = 0;
  const wrapped: Sql = Object.assign(Object.create(sql) as Sql, {
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await sql.query<Row>(text, params);
      for (const row of result.rows as Record<string, unknown>[]) {
        for (const value of Object.values(row)) if (value instanceof Uint8Array) largest = Math.max(largest, value.byteLength);
      }
      return result;
    },
  });
  return { sql: wrapped, largest: () => largest };
}

/**
 * Ingestion reads every upload back from the blob store on the API's thread. Postgres sends bytea as hex
 * text: a 19 MB blob read in one result held the event loop for 100–300 ms (the driver gathering 38 MB
 * of hex, then decoding it at once). Large blobs are read in 1 MiB slices instead.
 */
async function readsLargeBlobsInSlices(database: Sql, size: number) {
  const { sql, largest } = measured(database);
  const blobs = await createSqlBlobStore({ sql });
  const bytes = new Uint8Array(size);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
  const { sha256 } = await blobs.put(bytes);
  const read = await blobs.get(sha256);
  expect(read!.equals(Buffer.from(bytes))).toBe(true);
  expect(largest()).toBeLessThanOrEqual(1024 * 1024);
  const small = await blobs.put(new Uint8Array([1, 2, 3]));
  expect([...(await blobs.get(small.sha256))!]).toEqual([1, 2, 3]);
  expect(await blobs.get('0'.repeat(64))).toBeUndefined();
}

describe('large blobs are read in slices', () => {
  it.skipIf(!gate.available)(`on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    try {
      await readsLargeBlobsInSlices(sql, 19 * 1024 * 1024 + 123);
    } finally {
      await sql.close();
      await db.drop();
    }
  });

  it('on PGlite (a smaller blob: its database runs on this thread either way)', async () => {
    const sql = await createTestPglite();
    try {
      await readsLargeBlobsInSlices(sql, 3 * 1024 * 1024 + 7);
    } finally {
      await sql.close();
    }
  });
});
