import { toOrTsquery, toScopedTsquery } from '@kesher/contracts/rules/search-terms';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';
import { analyseQuestion, type AnalysedQuestion } from './question.js';

/** A passage of an assistant's knowledge found for a question, best first; `sourceUrl` when it came from an address. */
export interface RetrievedPassage {
  fileId: string;
  filename: string;
  sourceUrl: string | null;
  section: string | null;
  text: string;
  score: number;
  /**
   * The owner's own answer to this question (a curated Q&A, issue 26): `fileId` is its qa id, `section` its
   * question, `text` its answer. The engines put it before everything retrieved.
   */
  curated?: true;
}

/** Tuning of retrieval; the defaults are what the labelled evaluation sets were measured with. */
export interface RetrievalTuning {
  /** At most this many postings are collected per question: the rarest terms first, common ones dropped. */
  postingBudget: number;
  /** Passages re-ranked with proximity and term frequency after the first pass. */
  rerankDepth: number;
  /** Weight of ts_rank_cd (proximity, repetition) against the IDF sum. */
  proximityWeight: number;
  /**
   * Up to this many passages, an assistant's hits are found by reading its passages rather than by one
   * index lookup per question term. The lookups win on large knowledge bases, but on a small one Postgres
   * scans the table for each of the twenty-odd terms (its planner prefers that to the index) and unpacks
   * every passage's compressed terms each time: ~7 ms a question for 76 passages, against ~2 ms
   * unpacking each once.
   */
  readPassagesUpTo: number;
  /** How much a question word that only names the kind of answer counts against the words naming the subject. */
  cueFactor: number;
}

export const defaultRetrievalTuning: RetrievalTuning = {
  postingBudget: 20_000,
  rerankDepth: 40,
  proximityWeight: 2,
  readPassagesUpTo: 2000,
  cueFactor: 0.5,
};

interface ScoredTerm {
  term: string;
  word: number;
  weight: number;
  df: number;
}

/** Each question term looked up in the GIN index, scoped by the assistant's lexeme; OFFSET 0 keeps the
 * planner from trading it for a scan of the assistant's rows that would read every passage's terms. */
const HITS_BY_INDEX = `
       SELECT c.content_sha256, c.chunk_index, q.word, max(q.weight) AS weight
       FROM q CROSS JOIN LATERAL (
         SELECT assistant_id, content_sha256, chunk_index FROM knowledge_chunks
         WHERE terms @@ q.term::tsquery OFFSET 0
       ) c
       WHERE c.assistant_id = $1
       GROUP BY c.content_sha256, c.chunk_index, q.word`;

/**
 * Every passage of the assistant, its terms unpacked once: the question's terms ($9) are marked (weight A,
 * every other lexeme D) and only they are kept, so a passage yields its few matching terms rather than
 * its two hundred lexemes.
 */
const HITS_BY_READING_PASSAGES = `
       SELECT c.content_sha256, c.chunk_index, q.word, max(q.weight) AS weight
       FROM knowledge_chunks c
       CROSS JOIN LATERAL unnest(tsvector_to_array(ts_filter(setweight(setweight(c.terms, 'D'), 'A', $9::text[]), '{a}'))) AS l(lexeme)
       JOIN q ON q.term = l.lexeme
       WHERE c.assistant_id = $1
       GROUP BY c.content_sha256, c.chunk_index, q.word`;

/** The slice of a SQL connection retrieval needs (the read-model database). */
type Queryable = Pick<SqlExecutor, 'query'>;

/**
 * The passages of one assistant that best answer a question. Scoring is BM25's idea without its
 * bookkeeping: each question word contributes the inverse document frequency of its best-matching form
 * (the word as asked; with a Hebrew prefix or suffix or an English ending removed; spelled without vowel
 * letters; a synonym or a translation from the bilingual lexicon — each trusted a little less, see
 * FORM_FACTOR), so rare words decide and words found everywhere barely count. Matches are collected from
 * the GIN index without touching the passages; only the best few are then re-ranked with Postgres' cover
 * density (how close together and how often the words occur) and read in full.
 */
export async function retrieve(
  db: Queryable,
  { assistantId, question, k = 5 }: { assistantId: string; question: string | AnalysedQuestion; k?: number },
  tuning: RetrievalTuning = defaultRetrievalTuning,
): Promise<RetrievedPassage[]> {
  const { words } = typeof question === 'string' ? analyseQuestion(question) : question;
  if (words.length === 0 || k <= 0) return [];
  const allTerms = [...new Set(words.flatMap((word) => word.forms.map((form) => form.term)))];

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
    word.forms.flatMap((form) => {
      const frequency = df.get(form.term);
      if (!frequency) return [];
      const idf = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
      // A word that only names the kind of answer ("כמה עולה", "price") weighs less than the subject: the
      // passage about the kettle should come before the one page that happens to say "עולה".
      const cue = word.cueOf && !word.hint ? tuning.cueFactor : 1;
      return [{ term: form.term, word: index, df: frequency, weight: idf * form.factor * cue }];
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

  // A small knowledge base is read passage by passage, each passage's terms unpacked once; a large one
  // asks the GIN index term by term. Same hits either way (a term matches exactly its lexeme).
  const small = total <= tuning.readPassagesUpTo;
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
     ), hits AS (${small ? HITS_BY_READING_PASSAGES : HITS_BY_INDEX}
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
      selected.map((term) => (small ? term.term : toScopedTsquery(term.term, assistantId))),
      selected.map((term) => term.word),
      selected.map((term) => term.weight),
      toOrTsquery(selected.map((term) => term.term)),
      Math.max(tuning.rerankDepth, k),
      tuning.proximityWeight,
      k,
      ...(small ? [selected.map((term) => term.term)] : []),
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
