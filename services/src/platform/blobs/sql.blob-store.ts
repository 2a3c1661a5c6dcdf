import { randomUUID } from 'node:crypto';
import type { Sql, SqlExecutor } from '../sql/sql.port.js';
import { hashInSlices, type BlobStore } from './blob-store.port.js';

/**
 * The default blob store: tables in the read-model database (Postgres or PGlite) — `blobs` (one row per
 * blob: its size and the key of its parts), `blob_parts` (its bytes, 64 KiB a row) and `blob_holds` (one
 * row per (blob, holder) reference); see blob.migrations.ts.
 *
 * Why parts, each its own statement with the event loop free between: on `make start` the database is
 * PGlite, which runs in this very thread, and a statement holds the thread until it ends. Storing a 19.5 MB
 * upload in one INSERT froze every request of every owner for 19 s (PGlite turns a bytea parameter into hex
 * one byte at a time, and back again on reading). A part travels as base64 text instead (`decode`/`encode`
 * in SQL, Buffer's native codec here), 64 KiB in a few milliseconds; on Postgres the same parts
 * spare the driver from gathering one 38 MB hex string.
 *
 * Why a concurrent upload of the same bytes is safe: parts are written under a fresh key nobody else
 * uses, outside any transaction (a transaction on PGlite would hold its only connection, and so everyone,
 * for the whole upload). Then one short transaction locks the blob's row, or inserts it naming these
 * parts, and adds the reference; an upload that finds the row made meanwhile by another drops its own
 * parts. `release` drops its references, then locks the rows of the blobs they named before deleting those
 * left without any reference, and the database deletes a deleted blob's parts with it (a trigger). Whichever
 * comes second waits for the first on the blob's row lock, and release's final DELETE reads the references
 * committed by then — so a blob is never deleted under a reference being added, and a put after a delete
 * simply stores the bytes again. A deleted or unreadable knowledge file's blobs are released through
 * `release` by the knowledge blob-cleanup worker (services/src/workers/knowledge-blob-cleanup).
 *
 * Parts whose upload died before its row was written are left behind, named by no blob; they are deleted
 * when the store starts after a day (an upload in flight in another process is never that old).
 */
const ORPHAN_PARTS_AGE = '1 day';

/**
 * Bytes of one part the store writes: small enough that writing or reading one stays a short task (see
 * above). On a loaded 2-core machine 256 KiB parts held PGlite's thread 100–250 ms at times, 128 KiB up to
 * ~190 ms, 64 KiB under ~70 ms; more rows cost little (a 20 MB upload is 320 of them).
 */
export const BLOB_PART_BYTES = 64 * 1024;

/** Lets the event loop answer whoever is waiting (a /health probe, another owner's request) between two parts. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

async function writePart(db: SqlExecutor, partsKey: string, part: number, bytes: Uint8Array) {
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  await db.query(`INSERT INTO blob_parts (parts_key, part, bytes) VALUES ($1, $2, decode($3, 'base64'))`, [
    partsKey,
    part,
    base64,
  ]);
}

async function readPart(db: SqlExecutor, partsKey: string, part: number): Promise<Buffer | undefined> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT encode(bytes, 'base64') AS bytes FROM blob_parts WHERE parts_key = $1 AND part = $2`,
    [partsKey, part],
  );
  return rows[0] ? Buffer.from(rows[0].bytes, 'base64') : undefined;
}

export async function createSqlBlobStore(deps: { sql: Sql; partBytes?: number }): Promise<BlobStore> {
  const partBytes = deps.partBytes ?? BLOB_PART_BYTES;
  await deps.sql.query(
    `DELETE FROM blob_parts p WHERE p.created_at < now() - interval '${ORPHAN_PARTS_AGE}' AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.parts_key = p.parts_key)`,
  );

  /** Adds `holder`'s reference to the blob if it is stored (locking its row until the transaction ends). */
  async function holdIfStored(tx: SqlExecutor, sha256: string, holder: string | undefined): Promise<boolean> {
    const { rows } = await tx.query(`SELECT 1 FROM blobs WHERE sha256 = $1 FOR UPDATE`, [sha256]);
    if (rows.length === 0) return false;
    if (holder)
      await tx.query(`INSERT INTO blob_holds (sha256, holder) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        sha256,
        holder,
      ]);
    return true;
  }

  return {
    async put(bytes, options = {}) {
      const sha256 = await hashInSlices(bytes);
      const stored = { sha256, size: bytes.byteLength };
      // Bytes already stored are not sent again.
      if (await deps.sql.transaction((tx) => holdIfStored(tx, sha256, options.holder))) return stored;

      const partsKey = randomUUID();
      for (let offset = 0, part = 0; offset < bytes.byteLength || part === 0; offset += partBytes, part++) {
        if (part > 0) await breathe();
        await writePart(deps.sql, partsKey, part, bytes.subarray(offset, offset + partBytes));
      }
      const ours = await deps.sql.transaction(async (tx) => {
        // Another upload of these bytes may be sealing at this very moment: its row is not visible to a
        // SELECT until it commits, but the insert waits for it on the key and then does nothing, and the
        // row is held instead. If that row was released meanwhile, the insert is tried again.
        for (;;) {
          const { rows } = await tx.query(
            `INSERT INTO blobs (sha256, size, parts_key) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING RETURNING sha256`,
            [sha256, bytes.byteLength, partsKey],
          );
          if (rows.length > 0) {
            if (options.holder)
              await tx.query(`INSERT INTO blob_holds (sha256, holder) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
                sha256,
                options.holder,
              ]);
            return true;
          }
          if (await holdIfStored(tx, sha256, options.holder)) return false;
        }
      });
      // The same bytes were stored meanwhile by another upload: its parts serve both.
      if (!ours) await deps.sql.query(`DELETE FROM blob_parts WHERE parts_key = $1`, [partsKey]);
      return stored;
    },

    async get(sha256) {
      const { rows } = await deps.sql.query<{ size: string; parts_key: string }>(
        `SELECT size::text AS size, parts_key FROM blobs WHERE sha256 = $1`,
        [sha256],
      );
      const row = rows[0];
      if (!row) return undefined;
      const size = Number(row.size);
      // Parts in order, whatever their size (a migrated blob's are 256 KiB): the row's size says when it is whole.
      const whole = Buffer.allocUnsafe(size);
      for (let offset = 0, part = 0; offset < size || part === 0; part++) {
        if (part > 0) await breathe();
        const bytes = await readPart(deps.sql, row.parts_key, part);
        if (!bytes || offset + bytes.length > size) return undefined; // released meanwhile
        bytes.copy(whole, offset);
        offset += bytes.length;
        if (bytes.length === 0) break;
      }
      return whole;
    },

    async release(holder) {
      await deps.sql.transaction(async (tx) => {
        const { rows } = await tx.query<{ sha256: string }>(
          `DELETE FROM blob_holds WHERE holder = $1 RETURNING sha256`,
          [holder],
        );
        if (rows.length === 0) return;
        const named = rows.map((row) => row.sha256);
        await tx.query(`SELECT sha256 FROM blobs WHERE sha256 = ANY($1::text[]) ORDER BY sha256 FOR UPDATE`, [named]);
        await tx.query(
          `DELETE FROM blobs b WHERE b.sha256 = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM blob_holds h WHERE h.sha256 = b.sha256)`,
          [named],
        );
      });
    },
  };
}
