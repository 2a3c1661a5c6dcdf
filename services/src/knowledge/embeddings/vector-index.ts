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
const keyOf = (contentSha256: string, chunkIndex: number) => `${contentSha256}:${chunkIndex}`;
const splitKey = (key: string) => {
  const at = key.lastIndexOf(':');
  return { contentSha256: key.slice(0, at), chunkIndex: Number(key.slice(at + 1)) };
};
/** A normalised vector as little-endian float32 bytes (the column's format). */
const toBytes = (vector: readonly number[]) => {
  const floats = Float32Array.from(normalized(vector));
  const bytes = Buffer.alloc(floats.length * 4);
  floats.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes;
};
const fromBytes = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const floats = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < floats.length; i++) floats[i] = view.getFloat32(i * 4, true);
  return floats;
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The vectors of the knowledge read model's passages (table `knowledge_embeddings`, embedding.migrations.ts).
 * Nearest passages are found by a dot product over the assistant's vectors — exact, no approximate index:
 * an assistant holds thousands of passages, not millions.
 */
export function createVectorIndex(db: Queryable, options: { cacheBytes?: number } = {}) {
  const cacheBytes = options.cacheBytes ?? 256 * 1024 * 1024;
  /** Per model and assistant, the vectors held in this process (Map order: least recently used first). */
  const cache = new Map<string, Map<string, Float32Array>>();
  let cachedBytes = 0;
  const sizeOf = (vectors: Map<string, Float32Array>) =>
    [...vectors.values()].reduce((sum, vector) => sum + vector.byteLength, 0);

  async function vectorsOf(model: string, assistantId: string): Promise<Map<string, Float32Array>> {
    const cacheKey = `${model}\u0000${assistantId}`;
    const held = cache.get(cacheKey) ?? new Map<string, Float32Array>();
    cache.delete(cacheKey);
    cachedBytes -= sizeOf(held);
    const { rows: names } = await db.query<{ content_sha256: string; chunk_index: number }>(
      `SELECT content_sha256, chunk_index FROM knowledge_embeddings WHERE model = $1 AND assistant_id = $2`,
      [model, assistantId],
    );
    const present = new Set(names.map((row) => keyOf(row.content_sha256, Number(row.chunk_index))));
    for (const key of held.keys()) if (!present.has(key)) held.delete(key);
    const missing = [...present].filter((key) => !held.has(key)).map(splitKey);
    for (let i = 0; i < missing.length; i += 500) {
      const slice = missing.slice(i, i + 500);
      const { rows } = await db.query<{ content_sha256: string; chunk_index: number; embedding: Uint8Array }>(
        `SELECT e.content_sha256, e.chunk_index, e.embedding FROM unnest($3::text[], $4::int[]) AS n(content_sha256, chunk_index)
         JOIN knowledge_embeddings e ON e.model = $1 AND e.assistant_id = $2 AND e.content_sha256 = n.content_sha256 AND e.chunk_index = n.chunk_index`,
        [model, assistantId, slice.map((name) => name.contentSha256), slice.map((name) => name.chunkIndex)],
      );
      for (const row of rows) held.set(keyOf(row.content_sha256, Number(row.chunk_index)), fromBytes(row.embedding));
    }
    cache.set(cacheKey, held);
    cachedBytes += sizeOf(held);
    // Least recently asked assistants go first when the cache is over its size (the one asked now stays).
    for (const [key, vectors] of cache) {
      if (cachedBytes <= cacheBytes || key === cacheKey) break;
      cache.delete(key);
      cachedBytes -= sizeOf(vectors);
    }
    return held;
  }

  return {
    /**
     * Passages without a vector of `model`. A passage is named by its content's hash and its index, and the
     * passages of a content are fixed when it is ingested, so a vector never goes stale under its name.
     */
    async missing(model: string, limit: number): Promise<PassageToEmbed[]> {
      const { rows } = await db.query<{
        assistant_id: string;
        content_sha256: string;
        chunk_index: number;
        section: string | null;
        text: string;
      }>(
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
        return {
          assistantId: row.assistant_id,
          contentSha256: row.content_sha256,
          chunkIndex: Number(row.chunk_index),
          input,
          inputSha256: sha256(input),
        };
      });
    },

    async put(
      model: string,
      passages: readonly PassageToEmbed[],
      vectors: readonly (readonly number[])[],
    ): Promise<void> {
      if (passages.length === 0) return;
      await db.query(
        `INSERT INTO knowledge_embeddings (model, assistant_id, content_sha256, chunk_index, input_sha256, embedding)
         SELECT $1, p.assistant_id, p.content_sha256, p.chunk_index, p.input_sha256, p.embedding
         FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::bytea[]) AS p(assistant_id, content_sha256, chunk_index, input_sha256, embedding)
         -- A passage deleted while it was being embedded (its file deleted) gets no vector.
         WHERE EXISTS (SELECT 1 FROM knowledge_chunks c WHERE c.assistant_id = p.assistant_id AND c.content_sha256 = p.content_sha256 AND c.chunk_index = p.chunk_index)
         ON CONFLICT (model, assistant_id, content_sha256, chunk_index) DO UPDATE SET input_sha256 = excluded.input_sha256, embedding = excluded.embedding`,
        [
          model,
          passages.map((p) => p.assistantId),
          passages.map((p) => p.contentSha256),
          passages.map((p) => p.chunkIndex),
          passages.map((p) => p.inputSha256),
          vectors.map(toBytes),
        ],
      );
    },

    /** The vectors of other models go when the model setting changes (they would never be compared again). */
    async dropOtherModels(model: string): Promise<number> {
      const { rows } = await db.query<{ n: string }>(
        `WITH gone AS (DELETE FROM knowledge_embeddings WHERE model <> $1 RETURNING 1) SELECT count(*)::text AS n FROM gone`,
        [model],
      );
      return Number(rows[0]?.n ?? 0);
    },

    async count(model: string, assistantId?: string): Promise<number> {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM knowledge_embeddings WHERE model = $1 AND ($2::text IS NULL OR assistant_id = $2)`,
        [model, assistantId ?? null],
      );
      return Number(rows[0]!.n);
    },

    /**
     * The assistant's `k` passages most similar to `vector`. The assistant's vectors are kept in this
     * process (float32, about 6 KB a passage at 1,536 dimensions) and compared here: each call reads the
     * names of the assistant's vectors, loads the ones it does not hold, forgets the ones gone, and reads
     * the text of the best `k` only. A dot product over 2,000 passages is a few milliseconds here; in SQL
     * over real[] it was over a second.
     */
    async nearest(model: string, assistantId: string, vector: readonly number[], k: number): Promise<NearPassage[]> {
      const query = Float32Array.from(normalized(vector));
      const held = await vectorsOf(model, assistantId);
      const best: Array<{ key: string; similarity: number }> = [];
      for (const [key, candidate] of held) {
        if (candidate.length !== query.length) continue;
        let similarity = 0;
        for (let i = 0; i < query.length; i++) similarity += candidate[i]! * query[i]!;
        if (best.length < k || similarity > best[best.length - 1]!.similarity) {
          best.push({ key, similarity });
          best.sort((a, b) => b.similarity - a.similarity || (a.key < b.key ? -1 : 1));
          if (best.length > k) best.pop();
        }
      }
      if (best.length === 0) return [];
      const names = best.map((entry) => splitKey(entry.key));
      const { rows } = await db.query<{
        file_id: string;
        filename: string;
        source_url: string | null;
        section: string | null;
        text: string;
        content_sha256: string;
        chunk_index: number;
      }>(
        `SELECT f.id AS file_id, f.filename, f.source_url, c.section, c.text, c.content_sha256, c.chunk_index
         FROM unnest($2::text[], $3::int[]) AS n(content_sha256, chunk_index)
         JOIN knowledge_chunks c ON c.assistant_id = $1 AND c.content_sha256 = n.content_sha256 AND c.chunk_index = n.chunk_index
         JOIN knowledge_contents ct ON ct.assistant_id = $1 AND ct.content_sha256 = n.content_sha256
         JOIN knowledge_files f ON f.id = ct.file_id`,
        [assistantId, names.map((name) => name.contentSha256), names.map((name) => name.chunkIndex)],
      );
      const byKey = new Map(rows.map((row) => [keyOf(row.content_sha256, Number(row.chunk_index)), row]));
      return best.flatMap(({ key, similarity }) => {
        const row = byKey.get(key);
        return row
          ? [
              {
                fileId: row.file_id,
                filename: row.filename,
                sourceUrl: row.source_url,
                section: row.section,
                text: row.text,
                contentSha256: row.content_sha256,
                chunkIndex: Number(row.chunk_index),
                similarity,
              },
            ]
          : [];
      });
    },
  };
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;
