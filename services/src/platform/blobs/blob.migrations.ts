import type { Migration } from '../sql/migrations.js';

/** The SQL blob store's table (content-addressed file bytes). */
export const blobMigrations: readonly Migration[] = [
  {
    id: '001-blobs',
    sql: `CREATE TABLE IF NOT EXISTS blobs (
  sha256 text PRIMARY KEY,
  size bigint NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    // Who refers to each blob (a knowledge file's id): a blob nobody refers to is deleted (sql.blob-store.ts).
    // Blobs stored before this migration have no reference and are kept.
    id: '002-blob-holds',
    sql: `CREATE TABLE IF NOT EXISTS blob_holds (
  sha256 text NOT NULL,
  holder text NOT NULL,
  PRIMARY KEY (holder, sha256)
);
CREATE INDEX IF NOT EXISTS blob_holds_sha256 ON blob_holds (sha256)`,
  },
];
