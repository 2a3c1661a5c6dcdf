import { createHash } from 'node:crypto';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';
import { normalized } from './embedder.port.js';

type Queryable = Pick<SqlExecutor, 'query'>;

/** A passage of the knowledge read model that has no vector of the current model yet. */
export interface PassageToEmbed {
  assistantId: string;
  contentSha256: string;
  chunkIndex: number;
  /** What is embedded: the section title and the passage, as the full-text index reads them. */
  input: string;
  inputSha256: string;
}

/** A passage found by its vector's similarity to the question's (cosine, −1…1), best first. */
export interface NearPassage {
  fileId: string;
  filename: string;
  sourceUrl: string | null;
  section: string | null;
  text: string;
  contentSha256: string;
  chunkIndex: number;
  similarity: number;
}

export const embeddingInput = (section: string | null, text: string) => (section ? `${section}\n${text}` : text);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The vectors of the knowledge read model's passages (table `knowledge_embeddings`, embedding.migrations.ts).
 * Nearest passages are found by a dot product over the assistant's vectors — exact, no approximate index:
 * an assistant holds thousands of passages, not millions.
 */
export function createVectorIndex(db: Queryable) {
  return {
    /**
     * Passages without a vector of `model`. A passage is named by its content's hash and its index, and the
     * passages of a content are fixed when it is ingested, so a vector never goes stale under its name.
     */
    async missing(model: string, limit: number): Promise<PassageToEmbed[]> {
      const { rows } = await db.query<{ assistant_id: string; content_sha256: string; chunk_index: number; section: string | null; text: string }>(
        `SELECT c.assistant_id, c.content_sha256, c.chunk_index, c.section, c.text
         FROM knowledge_chunks c
         WHERE NOT EXISTS (
           SELECT 1 FROM knowledge_embeddings e
           WHERE e.model = $1 AND e.assistant_id = c.assistant_id AND e.content_sha256 = c.content_sha256 AND e.chunk_index = c.chunk_index)
         LIMIT $2`,
        [model, limit],
      );
      return rows.map((row) => {
        const input = embeddingInput(row.section, row.text);
        return { assistantId: row.assistant_id, contentSha256: row.content_sha256, chunkIndex: Number(row.chunk_index), input, inputSha256: sha256(input) };
      });
    },

    async put(model: string, passages: readonly PassageToEmbed[], vectors: readonly (readonly number[])[]): Promise<void> {
      if (passages.length === 0) return;
      await db.query(
        `INSERT INTO knowledge_embeddings (model, assistant_id, content_sha256, chunk_index, input_sha256, embedding)
         SELECT $1, p.assistant_id, p.content_sha256, p.chunk_index, p.input_sha256, p.embedding::real[]
         FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[]) AS p(assistant_id, content_sha256, chunk_index, input_sha256, embedding)
         -- A passage deleted while it was being embedded (its file deleted) gets no vector.
         WHERE EXISTS (SELECT 1 FROM knowledge_chunks c WHERE c.assistant_id = p.assistant_id AND c.content_sha256 = p.content_sha256 AND c.chunk_index = p.chunk_index)
         ON CONFLICT (model, assistant_id, content_sha256, chunk_index) DO UPDATE SET input_sha256 = excluded.input_sha256, embedding = excluded.embedding`,
        [
          model,
          passages.map((p) => p.assistantId),
          passages.map((p) => p.contentSha256),
          passages.map((p) => p.chunkIndex),
          passages.map((p) => p.inputSha256),
          // Sent as array literals: one text parameter per vector, whichever driver.
          vectors.map((vector) => `{${normalized(vector).join(',')}}`),
        ],
      );
    },

    /** The vectors of other models go when the model setting changes (they would never be compared again). */
    async dropOtherModels(model: string): Promise<number> {
      const { rows } = await db.query<{ n: string }>(`WITH gone AS (DELETE FROM knowledge_embeddings WHERE model <> $1 RETURNING 1) SELECT count(*)::text AS n FROM gone`, [model]);
      return Number(rows[0]?.n ?? 0);
    },

    async count(model: string, assistantId?: string): Promise<number> {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM knowledge_embeddings WHERE model = $1 AND ($2::text IS NULL OR assistant_id = $2)`,
        [model, assistantId ?? null],
      );
      return Number(rows[0]!.n);
    },

    /** The assistant's `k` passages most similar to `vector`. */
    async nearest(model: string, assistantId: string, vector: readonly number[], k: number): Promise<NearPassage[]> {
      const { rows } = await db.query<{ file_id: string; filename: string; source_url: string | null; section: string | null; text: string; content_sha256: string; chunk_index: number; similarity: number }>(
        `WITH near AS (
           SELECT e.content_sha256, e.chunk_index,
                  (SELECT sum(a * b) FROM unnest(e.embedding, $3::real[]) AS v(a, b)) AS similarity
           FROM knowledge_embeddings e
           WHERE e.model = $1 AND e.assistant_id = $2 AND cardinality(e.embedding) = cardinality($3::real[])
           ORDER BY similarity DESC, e.content_sha256, e.chunk_index
           LIMIT $4
         )
         SELECT f.id AS file_id, f.filename, f.source_url, c.section, c.text, n.content_sha256, n.chunk_index, n.similarity
         FROM near n
         JOIN knowledge_chunks c ON c.assistant_id = $2 AND c.content_sha256 = n.content_sha256 AND c.chunk_index = n.chunk_index
         JOIN knowledge_contents ct ON ct.assistant_id = $2 AND ct.content_sha256 = n.content_sha256
         JOIN knowledge_files f ON f.id = ct.file_id
         ORDER BY n.similarity DESC, n.content_sha256, n.chunk_index`,
        [model, assistantId, `{${normalized(vector).join(',')}}`, k],
      );
      return rows.map((row) => ({
        fileId: row.file_id,
        filename: row.filename,
        sourceUrl: row.source_url,
        section: row.section,
        text: row.text,
        contentSha256: row.content_sha256,
        chunkIndex: Number(row.chunk_index),
        similarity: Number(row.similarity),
      }));
    },
  };
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;
