import type { Migration } from '../sql/migrations.js';

/**
 * Bytes of the parts `003-blob-parts` cut single-row blobs into. Fixed: an applied migration's text may not
 * change. (How large the store writes its parts is the store's own choice; a blob's parts are read in order
 * whatever their size.)
 */
const MIGRATED_PART_BYTES = 256 * 1024;

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
  {
    // A blob's bytes move into parts, one row each, written and read one short statement at a time
    // (sql.blob-store.ts says why). Parts are written under a key of their own before the blob's row
    // names them, so two uploads of the same bytes never write into each other's parts; deleting a blob's
    // row deletes its parts (the trigger), whichever code deletes it (the store's release, the knowledge
    // read model's). Blobs stored in one row before are cut into 256 KiB parts here, under their sha-256 as key.
    // Parts are stored uncompressed: uploads are mostly compressed already (PDF, Office), and compressing
    // a part in the embedded database's WebAssembly only holds its thread longer.
    id: '003-blob-parts',
    sql: `CREATE TABLE IF NOT EXISTS blob_parts (
  parts_key text NOT NULL,
  part integer NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (parts_key, part)
);
ALTER TABLE blob_parts ALTER COLUMN bytes SET STORAGE EXTERNAL;
ALTER TABLE blobs ADD COLUMN IF NOT EXISTS parts_key text;
INSERT INTO blob_parts (parts_key, part, bytes)
  SELECT b.sha256, g.part, substring(b.bytes FROM g.part * ${MIGRATED_PART_BYTES} + 1 FOR ${MIGRATED_PART_BYTES})
  FROM blobs b CROSS JOIN LATERAL generate_series(0, greatest(octet_length(b.bytes) - 1, 0) / ${MIGRATED_PART_BYTES}) AS g(part);
UPDATE blobs SET parts_key = sha256;
ALTER TABLE blobs DROP COLUMN bytes;
ALTER TABLE blobs ALTER COLUMN parts_key SET NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS blobs_parts_key ON blobs (parts_key);
CREATE OR REPLACE FUNCTION blob_parts_go_with_their_blob() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM blob_parts WHERE parts_key = OLD.parts_key;
  RETURN OLD;
END $$;
CREATE TRIGGER blobs_delete_parts AFTER DELETE ON blobs FOR EACH ROW EXECUTE FUNCTION blob_parts_go_with_their_blob()`,
  },
];
