import { KnowledgeChunkSchema, type KnowledgeChunk, type KnowledgeFileIngested } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { SEARCH_TERMS_VERSION, toTsvectorLiteral } from '@kesher/contracts/rules/search-terms';
import { defineProjection, type EventOf } from '../shared/typed-projection.js';

/**
 * Reads a blob by its sha-256. It gets the runner's transaction too: the default blob store is a table in
 * the read-model database, and on PGlite (one backend) a read outside the transaction would wait for it
 * forever. A reader for a store elsewhere (S3) simply ignores `db`.
 */
export type KnowledgeBlobReader = (sha256: string, db: Queryable) => Promise<Uint8Array | undefined>;

/**
 * The default reader: the SQL blob store's tables (services/src/platform/blobs/sql.blob-store.ts), read in
 * the transaction. Its parts come as base64 text: PGlite decodes a bytea result one byte at a time in
 * JavaScript (a 2 MB passage list held the thread for over half a second).
 */
export const readBlobFromReadModel: KnowledgeBlobReader = async (sha256, db) => {
  const { rows: exists } = await db.query<{ found: boolean }>(`SELECT to_regclass('blob_parts') IS NOT NULL AS found`);
  if (!exists[0]?.found) return undefined;
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT encode(p.bytes, 'base64') AS bytes FROM blobs b JOIN blob_parts p ON p.parts_key = b.parts_key WHERE b.sha256 = $1 ORDER BY p.part`,
    [sha256],
  );
  return rows.length === 0 ? undefined : Buffer.concat(rows.map((row) => Buffer.from(row.bytes, 'base64')));
};

const ChunkListSchema = KnowledgeChunkSchema.array();

const unavailable = 'The extracted text of this file is no longer available. Upload the file again.';

interface FileRow {
  id: string;
  assistant_id: string;
  content_sha256: string;
  status: string;
}

async function findFile(db: Queryable, fileId: string): Promise<FileRow | undefined> {
  const { rows } = await db.query<FileRow>(
    `SELECT id, assistant_id, content_sha256, status FROM knowledge_files WHERE id = $1`,
    [fileId],
  );
  return rows[0];
}

async function uploaded(db: Queryable, event: EventOf<'KnowledgeFileUploaded'>) {
  const file = event.data;
  await db.query(
    `INSERT INTO knowledge_files (id, assistant_id, owner_id, filename, kind, bytes, source_url, content_sha256, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9)
     ON CONFLICT (id) DO NOTHING`,
    [
      file.fileId,
      file.assistantId,
      file.ownerId,
      file.filename,
      file.kind,
      file.bytes,
      file.sourceUrl,
      file.contentSha256,
      event.metadata.timestamp,
    ],
  );
}

async function markFailed(db: Queryable, fileId: string, reason: string, at: string) {
  await db.query(
    `UPDATE knowledge_files SET status = 'failed', status_reason = $2, updated_at = $3 WHERE id = $1 AND status = 'pending'`,
    [fileId, reason, at],
  );
}

/** Adds (sign 1) or removes (sign -1) one content's passages from the assistant's term statistics. */
async function countTerms(db: Queryable, assistantId: string, contentSha256: string, sign: 1 | -1) {
  await db.query(
    `INSERT INTO knowledge_term_stats (assistant_id, term, chunks)
     SELECT $1, u.lexeme, $3 * count(*) FROM knowledge_chunks c, unnest(c.terms) AS u(lexeme, positions, weights)
     WHERE c.assistant_id = $1 AND c.content_sha256 = $2 AND u.positions IS NOT NULL
     GROUP BY u.lexeme
     ON CONFLICT (assistant_id, term) DO UPDATE SET chunks = knowledge_term_stats.chunks + excluded.chunks`,
    [assistantId, contentSha256, sign],
  );
  await db.query(
    `INSERT INTO knowledge_assistant_stats (assistant_id, chunks)
     SELECT $1, $3 * count(*) FROM knowledge_chunks WHERE assistant_id = $1 AND content_sha256 = $2
     ON CONFLICT (assistant_id) DO UPDATE SET chunks = knowledge_assistant_stats.chunks + excluded.chunks`,
    [assistantId, contentSha256, sign],
  );
  if (sign < 0) {
    await db.query(`DELETE FROM knowledge_term_stats WHERE assistant_id = $1 AND chunks <= 0`, [assistantId]);
    await db.query(`DELETE FROM knowledge_assistant_stats WHERE assistant_id = $1 AND chunks <= 0`, [assistantId]);
  }
}

async function readChunks(
  readBlob: KnowledgeBlobReader,
  db: Queryable,
  data: KnowledgeFileIngested,
): Promise<{ chunks: KnowledgeChunk[]; text: string } | undefined> {
  const [chunkBytes, textBytes] = [await readBlob(data.chunksSha256, db), await readBlob(data.textSha256, db)];
  if (!chunkBytes || !textBytes) return undefined;
  try {
    const parsed = ChunkListSchema.safeParse(JSON.parse(new TextDecoder().decode(chunkBytes)));
    return parsed.success ? { chunks: parsed.data, text: new TextDecoder().decode(textBytes) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passages are stored once per (assistant, content): a second file with the same bytes in the same
 * assistant shares the first one's passages, so retrieval never returns the same passage twice. The
 * content row names the file its passages are cited under.
 */
async function ingested(db: Queryable, event: EventOf<'KnowledgeFileIngested'>, readBlob: KnowledgeBlobReader) {
  const data = event.data;
  const file = await findFile(db, data.fileId);
  if (!file || file.status !== 'pending') return;

  const { rows: existing } = await db.query(
    `SELECT 1 FROM knowledge_contents WHERE assistant_id = $1 AND content_sha256 = $2`,
    [file.assistant_id, file.content_sha256],
  );
  if (existing.length === 0) {
    const content = await readChunks(readBlob, db, data);
    if (!content) {
      await markFailed(db, file.id, unavailable, event.metadata.timestamp);
      return;
    }
    await db.query(
      `INSERT INTO knowledge_contents (assistant_id, content_sha256, file_id, text, chunk_count) VALUES ($1, $2, $3, $4, $5)`,
      [file.assistant_id, file.content_sha256, file.id, content.text, content.chunks.length],
    );
    if (content.chunks.length > 0) {
      await db.query(
        `INSERT INTO knowledge_chunks (assistant_id, content_sha256, chunk_index, section, text, terms)
         SELECT $1, $2, chunk.index, chunk.section, chunk.text, chunk.terms::tsvector
         FROM unnest($3::int[], $4::text[], $5::text[], $6::text[]) AS chunk(index, section, text, terms)
         ON CONFLICT DO NOTHING`,
        [
          file.assistant_id,
          file.content_sha256,
          content.chunks.map((chunk) => chunk.index),
          content.chunks.map((chunk) => chunk.section),
          content.chunks.map((chunk) => chunk.text),
          // The section title is searchable too: a question often names the heading, not the words under it.
          content.chunks.map((chunk) =>
            toTsvectorLiteral(chunk.section ? `${chunk.section}\n${chunk.text}` : chunk.text, file.assistant_id),
          ),
        ],
      );
      await countTerms(db, file.assistant_id, file.content_sha256, 1);
    }
  }
  await db.query(
    `UPDATE knowledge_files SET status = 'ready', status_reason = NULL, language = $2, characters = $3, chunk_count = $4, updated_at = $5 WHERE id = $1`,
    [file.id, data.language, data.characters, data.chunkCount, event.metadata.timestamp],
  );
}

/**
 * The passages' embedding vectors go with the passages (services/src/knowledge/embeddings: a table of the
 * knowledge module beside this read model, kept through rebuilds because vectors are paid for). A
 * database without the table (a read model alone, in tests) has none to delete.
 */
async function deleteVectors(db: Queryable, assistantId: string, contentSha256: string) {
  const { rows } = await db.query<{ found: boolean }>(
    `SELECT to_regclass('knowledge_embeddings') IS NOT NULL AS found`,
  );
  if (!rows[0]?.found) return;
  await db.query(`DELETE FROM knowledge_embeddings WHERE assistant_id = $1 AND content_sha256 = $2`, [
    assistantId,
    contentSha256,
  ]);
}

/**
 * A deleted file takes its passages with it unless another file of the assistant holds the same
 * content; then the passages stay and are cited under that file from now on. Its blobs (bytes, text,
 * passage list) are not this read model's: the knowledge blob-cleanup worker releases them through the
 * blob store (services/src/workers/knowledge-blob-cleanup), so a replay of this read model never
 * touches them.
 */
async function deleted(db: Queryable, event: EventOf<'KnowledgeFileDeleted'>) {
  const file = await findFile(db, event.data.fileId);
  if (!file) return;
  await db.query(`DELETE FROM knowledge_files WHERE id = $1`, [file.id]);
  const { rows: contents } = await db.query<{ file_id: string }>(
    `SELECT file_id FROM knowledge_contents WHERE assistant_id = $1 AND content_sha256 = $2`,
    [file.assistant_id, file.content_sha256],
  );
  if (contents[0]?.file_id !== file.id) return;
  const { rows: heirs } = await db.query<{ id: string }>(
    `SELECT id FROM knowledge_files WHERE assistant_id = $1 AND content_sha256 = $2 AND status = 'ready' ORDER BY created_at, id LIMIT 1`,
    [file.assistant_id, file.content_sha256],
  );
  if (heirs[0]) {
    await db.query(`UPDATE knowledge_contents SET file_id = $3 WHERE assistant_id = $1 AND content_sha256 = $2`, [
      file.assistant_id,
      file.content_sha256,
      heirs[0].id,
    ]);
    return;
  }
  await countTerms(db, file.assistant_id, file.content_sha256, -1);
  await deleteVectors(db, file.assistant_id, file.content_sha256);
  await db.query(`DELETE FROM knowledge_chunks WHERE assistant_id = $1 AND content_sha256 = $2`, [
    file.assistant_id,
    file.content_sha256,
  ]);
  await db.query(`DELETE FROM knowledge_contents WHERE assistant_id = $1 AND content_sha256 = $2`, [
    file.assistant_id,
    file.content_sha256,
  ]);
}

const tables = [
  'knowledge_files',
  'knowledge_contents',
  'knowledge_chunks',
  'knowledge_term_stats',
  'knowledge_assistant_stats',
] as const;

/**
 * The knowledge read model: the files of each assistant with their status, their text, and the
 * searchable passages. Search terms are computed here from the chunk list (see search-terms.ts), so a
 * change of the normaliser is a version bump and a rebuild, not a re-ingestion.
 */
export function knowledgeProjection(deps: { readBlob: KnowledgeBlobReader }): Projection {
  return defineProjection({
    name: 'knowledge',
    // The search-term rules' version rebuilds the index whenever they change what a text is indexed as.
    version: SEARCH_TERMS_VERSION,
    tables,
    migrations: [
      {
        id: '001-tables',
        sql: `
CREATE TABLE IF NOT EXISTS knowledge_files (
  id text PRIMARY KEY,
  assistant_id text NOT NULL,
  owner_id text NOT NULL,
  filename text NOT NULL,
  kind text NOT NULL,
  bytes bigint NOT NULL,
  source_url text,
  content_sha256 text NOT NULL,
  status text NOT NULL,
  status_reason text,
  language text,
  characters int,
  chunk_count int,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS knowledge_files_owner ON knowledge_files (owner_id, assistant_id, created_at);
CREATE INDEX IF NOT EXISTS knowledge_files_content ON knowledge_files (assistant_id, content_sha256);
CREATE TABLE IF NOT EXISTS knowledge_contents (
  assistant_id text NOT NULL,
  content_sha256 text NOT NULL,
  file_id text NOT NULL,
  text text NOT NULL,
  chunk_count int NOT NULL,
  PRIMARY KEY (assistant_id, content_sha256)
);
-- Rows are kept small (text and terms go to TOAST), so that collecting matches from the GIN index
-- reads a few pages instead of every passage's text. Each tsvector also holds its assistant's scope
-- lexeme (search-terms.ts), so the GIN index alone finds a word within one assistant.
CREATE TABLE IF NOT EXISTS knowledge_chunks (
  assistant_id text NOT NULL,
  content_sha256 text NOT NULL,
  chunk_index int NOT NULL,
  section text,
  text text NOT NULL,
  terms tsvector NOT NULL,
  PRIMARY KEY (assistant_id, content_sha256, chunk_index)
) WITH (toast_tuple_target = 128);
CREATE INDEX IF NOT EXISTS knowledge_chunks_terms ON knowledge_chunks USING gin (terms);
CREATE TABLE IF NOT EXISTS knowledge_term_stats (
  assistant_id text NOT NULL,
  term text NOT NULL,
  chunks int NOT NULL,
  PRIMARY KEY (assistant_id, term)
);
CREATE TABLE IF NOT EXISTS knowledge_assistant_stats (
  assistant_id text PRIMARY KEY,
  chunks int NOT NULL
);
`,
      },
      {
        id: '002-matching-by-index',
        // The GIN index's passages for one term (retrieve.ts asks it term by term), with the planner held to
        // the index: on a table of a few hundred passages it priced a sequential scan cheaper, not counting
        // that every row's terms are then fetched from TOAST and unpacked, once per term (500 passages:
        // ~120 ms a question, against ~9 ms through the index). A function with its own setting is not
        // inlined, so the setting holds for this lookup only.
        sql: `
CREATE OR REPLACE FUNCTION knowledge_chunks_matching(q tsquery)
RETURNS TABLE (assistant_id text, content_sha256 text, chunk_index int)
LANGUAGE sql STABLE SET enable_seqscan = off
AS $$ SELECT c.assistant_id, c.content_sha256, c.chunk_index FROM knowledge_chunks c WHERE c.terms @@ q $$;
`,
      },
    ],
    on: {
      KnowledgeFileUploaded: uploaded,
      KnowledgeFileIngested: (db, event) => ingested(db, event, deps.readBlob),
      // A file that cannot be read is kept in the list with its reason (its bytes go: the cleanup worker).
      KnowledgeFileIngestionFailed: (db, event) =>
        markFailed(db, event.data.fileId, event.data.reason, event.metadata.timestamp),
      KnowledgeFileDeleted: deleted,
    },
  });
}
