import { createHash } from 'node:crypto';
import type { Sql } from '../sql/sql.port.js';
import type { BlobStore } from './blob-store.port.js';

/** The default blob store: a table in the read-model database (Postgres or PGlite). */
export async function createSqlBlobStore(deps: { sql: Sql }): Promise<BlobStore> {
  await deps.sql.exec(`CREATE TABLE IF NOT EXISTS blobs (
    sha256 text PRIMARY KEY,
    size bigint NOT NULL,
    bytes bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`);
  return {
    async put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await deps.sql.query(`INSERT INTO blobs (sha256, size, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`, [sha256, bytes.byteLength, bytes]);
      return { sha256, size: bytes.byteLength };
    },
    async get(sha256) {
      const { rows } = await deps.sql.query<{ bytes: Uint8Array }>(`SELECT bytes FROM blobs WHERE sha256 = $1`, [sha256]);
      return rows[0] ? Buffer.from(rows[0].bytes) : undefined;
    },
  };
}
