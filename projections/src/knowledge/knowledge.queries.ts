import type { KnowledgeFileKind } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { queryWords, toOrTsquery, toScopedTsquery } from './search-terms.js';

export interface KnowledgeFileRecord {
  id: string;
  assistantId: string;
  filename: string;
  kind: KnowledgeFileKind;
  bytes: number;
  createdAt: Date;
  status: 'pending' | 'ready' | 'failed';
  statusReason: string | null;
  sourceUrl: string | null;
  contentSha256: string;
  language: 'he' | 'en' | 'other' | null;
  chunkCount: number | null;
}

interface FileRow {
  id: string;
  assistant_id: string;
  filename: string;
  kind: KnowledgeFileKind;
  bytes: string | number;
  created_at: Date | string;
  status: KnowledgeFileRecord['status'];
  status_reason: string | null;
  source_url: string | null;
  content_sha256: string;
  language: KnowledgeFileRecord['language'];
  chunk_count: number | null;
}

const toRecord = (row: FileRow): KnowledgeFileRecord => ({
  id: row.id,
  assistantId: row.assistant_id,
  filename: row.filename,
  kind: row.kind,
  bytes: Number(row.bytes),
  createdAt: new Date(row.created_at),
  status: row.status,
  statusReason: row.status_reason,
  sourceUrl: row.source_url,
  contentSha256: row.content_sha256,
  language: row.language,
  chunkCount: row.chunk_count,
});

const fileColumns = `id, assistant_id, filename, kind, bytes, created_at, status, status_reason, source_url, content_sha256, language, chunk_count`;

/** Files and their text, always scoped by owner: one owner can never read another's files through these. */
export function knowledgeQueries(db: Queryable) {
  return {
    async listFiles(ownerId: string, assistantId: string): Promise<KnowledgeFileRecord[]> {
      const { rows } = await db.query<FileRow>(
        `SELECT ${fileColumns} FROM knowledge_files WHERE owner_id = $1 AND assistant_id = $2 ORDER BY created_at, id`,
        [ownerId, assistantId],
      );
      return rows.map(toRecord);
    },

    async getFile(ownerId: string, fileId: string): Promise<KnowledgeFileRecord | undefined> {
      const { rows } = await db.query<FileRow>(`SELECT ${fileColumns} FROM knowledge_files WHERE owner_id = $1 AND id = $2`, [ownerId, fileId]);
      return rows[0] && toRecord(rows[0]);
    },

    /**
     * The earliest file of an assistant with exactly these bytes, pending or ready. A failed one does not
     * count: its bytes were given up, and reading them again may succeed (a limit raised, a timeout).
     */
    async findByContent(ownerId: string, assistantId: string, contentSha256: string): Promise<KnowledgeFileRecord | undefined> {
      const { rows } = await db.query<FileRow>(
        `SELECT ${fileColumns} FROM knowledge_files WHERE owner_id = $1 AND assistant_id = $2 AND content_sha256 = $3 AND status <> 'failed' ORDER BY created_at, id LIMIT 1`,
        [ownerId, assistantId, contentSha256],
      );
      return rows[0] && toRecord(rows[0]);
    },

    /**
     * The file's extracted text for citations (spec: GET /openai/file/{fileId}/content), led by a
     * `URL: <address>` line when the file came from an address. Undefined until the file is ready.
     */
    async fileText(ownerId: string, fileId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ text: string; source_url: string | null }>(
        `SELECT c.text, f.source_url FROM knowledge_files f
         JOIN knowledge_contents c ON c.assistant_id = f.assistant_id AND c.content_sha256 = f.content_sha256
         WHERE f.owner_id = $1 AND f.id = $2 AND f.status = 'ready'`,
        [ownerId, fileId],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.source_url ? `URL: ${row.source_url}\n\n${row.text}` : row.text;
    },

    /**
     * Bytes of the owner's files as listed (a file uploaded twice counts twice, as the owner sees it), but
     * not of failed ones: their bytes are not kept (the knowledge read model releases them).
     */
    async storageUsed(ownerId: string): Promise<number> {
      const { rows } = await db.query<{ used: string | number | null }>(
        `SELECT coalesce(sum(bytes), 0) AS used FROM knowledge_files WHERE owner_id = $1 AND status <> 'failed'`,
        [ownerId],
      );
      return Number(rows[0]?.used ?? 0);
    },
  };
}

export type KnowledgeQueries = ReturnType<typeof knowledgeQueries>;

export interface RetrievedPassage {
  fileId: string;
  filename: string;
  sourceUrl: string | null;
  section: string | null;
  text: string;
  score: number;
}

/** Tuning of retrieval; the defaults are what the labelled evaluation set was measured with. */
export interface RetrievalTuning {
  /** Score of a match on a stripped form (prefix, plural) relative to a match on the word as asked. */
  variantFactor: number;
  /** At most this many postings are collected per question: the rarest terms first, common ones dropped. */
  postingBudget: number;
  /** Passages re-ranked with proximity and term frequency after the first pass. */
  rerankDepth: number;
  /** Weight of ts_rank_cd (proximity, repetition) against the IDF sum. */
  proximityWeight: number;
}

export const defaultRetrievalTuning: RetrievalTuning = {
  variantFactor: 0.8,
  postingBudget: 20_000,
  rerankDepth: 40,
  proximityWeight: 2,
};

interface ScoredTerm {
  term: string;
  word: number;
  weight: number;
  df: number;
}

/**
 * The passages of one assistant that best answer a question. Scoring is BM25's idea without its
 * bookkeeping: each question word contributes the inverse document frequency of its best-matching form
 * (the word as asked, or with its Hebrew prefix / English ending removed, slightly discounted), so rare
 * words decide and words found everywhere barely count. Matches are collected from the GIN index without
 * touching the passages; only the best few are then re-ranked with Postgres' cover density (how close
 * together and how often the words occur) and read in full.
 */
export async function retrieve(
  db: Queryable,
  { assistantId, question, k = 5 }: { assistantId: string; question: string; k?: number },
  tuning: RetrievalTuning = defaultRetrievalTuning,
): Promise<RetrievedPassage[]> {
  const words = queryWords(question);
  if (words.length === 0 || k <= 0) return [];
  const allTerms = [...new Set(words.flatMap((word) => word.variants.map((variant) => variant.term)))];

  const { rows: stats } = await db.query<{ term: string; chunks: number; total: number }>(
    `SELECT s.term, s.chunks, a.chunks AS total FROM knowledge_term_stats s
     JOIN knowledge_assistant_stats a ON a.assistant_id = s.assistant_id
     WHERE s.assistant_id = $1 AND s.term = ANY($2::text[])`,
    [assistantId, allTerms],
  );
  if (stats.length === 0) return [];
  const total = Number(stats[0]!.total);
  const df = new Map(stats.map((row) => [row.term, Number(row.chunks)]));

  const candidates: ScoredTerm[] = words.flatMap((word, index) =>
    word.variants.flatMap((variant) => {
      const frequency = df.get(variant.term);
      if (!frequency) return [];
      const idf = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
      return [{ term: variant.term, word: index, df: frequency, weight: idf * (variant.exact ? 1 : tuning.variantFactor) }];
    }),
  );
  // Rarest first until the posting budget is spent; the rarest term is always kept.
  candidates.sort((a, b) => a.df - b.df);
  const selected: ScoredTerm[] = [];
  let postings = 0;
  for (const term of candidates) {
    if (selected.length > 0 && postings + term.df > tuning.postingBudget) continue;
    selected.push(term);
    postings += term.df;
  }

  const { rows } = await db.query<{
    file_id: string;
    filename: string;
    source_url: string | null;
    section: string | null;
    text: string;
    score: number;
  }>(
    `WITH q AS (
       SELECT * FROM unnest($2::text[], $3::int[], $4::float8[]) AS q(term, word, weight)
     ), hits AS (
       -- One GIN lookup per term, scoped by the assistant's lexeme; OFFSET 0 keeps the planner from
       -- trading it for a scan of the assistant's rows that would read every passage's terms.
       SELECT c.content_sha256, c.chunk_index, q.word, max(q.weight) AS weight
       FROM q CROSS JOIN LATERAL (
         SELECT assistant_id, content_sha256, chunk_index FROM knowledge_chunks
         WHERE terms @@ q.term::tsquery OFFSET 0
       ) c
       WHERE c.assistant_id = $1
       GROUP BY c.content_sha256, c.chunk_index, q.word
     ), first_pass AS (
       SELECT content_sha256, chunk_index, sum(weight) AS lexical FROM hits
       GROUP BY content_sha256, chunk_index
       ORDER BY lexical DESC, content_sha256, chunk_index
       LIMIT $6
     )
     SELECT f.id AS file_id, f.filename, f.source_url, c.section, c.text,
            (p.lexical + $7 * ts_rank_cd(c.terms, $5::tsquery, 2)) AS score
     FROM first_pass p
     JOIN knowledge_chunks c ON c.assistant_id = $1 AND c.content_sha256 = p.content_sha256 AND c.chunk_index = p.chunk_index
     JOIN knowledge_contents ct ON ct.assistant_id = $1 AND ct.content_sha256 = p.content_sha256
     JOIN knowledge_files f ON f.id = ct.file_id
     ORDER BY score DESC, p.content_sha256, p.chunk_index
     LIMIT $8`,
    [
      assistantId,
      selected.map((term) => toScopedTsquery(term.term, assistantId)),
      selected.map((term) => term.word),
      selected.map((term) => term.weight),
      toOrTsquery(selected.map((term) => term.term)),
      Math.max(tuning.rerankDepth, k),
      tuning.proximityWeight,
      k,
    ],
  );
  return rows.map((row) => ({
    fileId: row.file_id,
    filename: row.filename,
    sourceUrl: row.source_url,
    section: row.section,
    text: row.text,
    score: Number(row.score),
  }));
}
