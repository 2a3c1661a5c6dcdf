import type { Migration } from '../../platform/sql/migrations.js';

/**
 * The passages' embedding vectors, beside the knowledge read model in the same database. Not a read model
 * of its own: a vector is the output of a paid call to an outside service, so a rebuild of the knowledge
 * read model (which drops its tables) must not throw them away. Rows are keyed by the passage
 * (assistant, content, index) and the model; `input_sha256` records what was embedded. The knowledge
 * projection deletes a passage's vectors with the passage. Vectors are stored normalised (length 1), as
 * little-endian float32 bytes since migration 002, and compared by a dot product in the process
 * (vector-index.ts) — neither the pgvector extension nor PGlite's vector build is available here
 * (docs/knowledge.md).
 */
export const embeddingMigrations: readonly Migration[] = [
  {
    id: '001-knowledge-embeddings',
    sql: `CREATE TABLE IF NOT EXISTS knowledge_embeddings (
  model text NOT NULL,
  assistant_id text NOT NULL,
  content_sha256 text NOT NULL,
  chunk_index int NOT NULL,
  input_sha256 text NOT NULL,
  embedding real[] NOT NULL,
  PRIMARY KEY (model, assistant_id, content_sha256, chunk_index)
)`,
  },
  {
    // Vectors as float32 bytes: compared in the process (vector-index.ts), a dot product over real[] in SQL
    // took 0.5–0.7 ms a passage at 1,536 dimensions. The old rows are dropped: the indexer makes them again.
    id: '002-embeddings-as-float32',
    sql: `DELETE FROM knowledge_embeddings;
ALTER TABLE knowledge_embeddings DROP COLUMN embedding;
ALTER TABLE knowledge_embeddings ADD COLUMN embedding bytea NOT NULL`,
  },
];
