import type { Sql } from '../sql/sql.port.js';
import { sha256Of, type BlobStore } from './blob-store.port.js';

/**
 * The default blob store: a table in the read-model database (Postgres or PGlite), with one row per
 * (blob, holder) reference in `blob_holds`; see blob.migrations.ts.
 *
 * Why a concurrent upload of the same bytes is safe: `put` locks the blob's row (or inserts it) and adds
 * its reference in one transaction; `release` drops its references, then locks the rows of the blobs they
 * named before deleting those left without any reference. Whichever comes second waits for the first on
 * the blob's row lock, and release's final DELETE reads the references committed by then — so a blob is
 * never deleted under a reference being added, and a put after a delete simply stores the bytes again.
 * The knowledge read model releases a deleted file's blobs the same way inside its own transaction
 * (projections/src/knowledge/knowledge.projection.ts, `releaseBlobsInReadModel`).
 */
/** Blobs larger than this are read from the database in slices of this size. */
const READ_SLICE_BYTES = 1024 * 1024;

export async function createSqlBlobStore(deps: { sql: Sql }): Promise<BlobStore> {
  return {
    async put(bytes, options = {}) {
      const sha256 = sha256Of(bytes);
      const insert = `INSERT INTO blobs (sha256, size, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`;
      if (!options.holder) {
        await deps.sql.query(insert, [sha256, bytes.byteLength, bytes]);
        return { sha256, size: bytes.byteLength };
      }
      const holder = options.holder;
      await deps.sql.transaction(async (tx) => {
        // Locked when present (the bytes are not sent again); inserted otherwise, locked by the insert.
        const { rows } = await tx.query(`SELECT 1 FROM blobs WHERE sha256 = $1 FOR UPDATE`, [sha256]);
        if (rows.length === 0) {
          await tx.query(`INSERT INTO blobs (sha256, size, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO UPDATE SET size = excluded.size`, [sha256, bytes.byteLength, bytes]);
        }
        await tx.query(`INSERT INTO blob_holds (sha256, holder) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [sha256, holder]);
      });
      return { sha256, size: bytes.byteLength };
    },

    async get(sha256) {
      const { rows } = await deps.sql.query<{ size: number; bytes: Uint8Array | null }>(
        `SELECT octet_length(bytes) AS size, CASE WHEN octet_length(bytes) <= $2 THEN bytes END AS bytes FROM blobs WHERE sha256 = $1`,
        [sha256, READ_SLICE_BYTES],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (row.bytes) return Buffer.from(row.bytes);
      // A large blob is read in slices: Postgres sends bytea as hex text, and a 19 MB row in one piece held
      // the event loop for 100–300 ms (the driver gathering 38 MB of hex, then decoding it at once) while
      // every owner's requests waited. A 1 MiB slice costs a few milliseconds, with the loop free between.
      const whole = Buffer.allocUnsafe(Number(row.size));
      for (let offset = 0; offset < whole.length; offset += READ_SLICE_BYTES) {
        const slice = await deps.sql.query<{ bytes: Uint8Array }>(`SELECT substring(bytes FROM $2 FOR $3) AS bytes FROM blobs WHERE sha256 = $1`, [sha256, offset + 1, READ_SLICE_BYTES]);
        if (!slice.rows[0]) return undefined; // released meanwhile
        whole.set(slice.rows[0].bytes, offset);
      }
      return whole;
    },

    async release(holder) {
      await deps.sql.transaction(async (tx) => {
        const { rows } = await tx.query<{ sha256: string }>(`DELETE FROM blob_holds WHERE holder = $1 RETURNING sha256`, [holder]);
        if (rows.length === 0) return;
        const named = rows.map((row) => row.sha256);
        await tx.query(`SELECT sha256 FROM blobs WHERE sha256 = ANY($1::text[]) ORDER BY sha256 FOR UPDATE`, [named]);
        await tx.query(`DELETE FROM blobs b WHERE b.sha256 = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM blob_holds h WHERE h.sha256 = b.sha256)`, [named]);
      });
    },
  };
}
