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
   * index lookup per question term. Reading costs about 30 µs a passage (76 passages ~7 ms, 500 ~22 ms,
   * 2,000 ~60 ms a question); the lookups about 6–13 ms whatever the size (`npx tsx
   * ops/bench/retrieval-paths.bench.ts`). They cross between 80 and 150 passages; 2,000 was the threshold
   * while the lookups could fall to a scan of the table (then 40–160 ms on a few hundred passages).
   */
  readPassagesUpTo: number;
  /** How much a question word that only names the kind of answer counts against the words naming the subject. */
  cueFactor: number;
}

export const defaultRetrievalTuning: RetrievalTuning = {
  postingBudget: 20_000,
  rerankDepth: 40,
  proximityWeight: 2,
  readPassagesUpTo: 150,
  cueFactor: 0.5,
};

/**
 * Each selected term looked up in the GIN index, scoped by the assistant's lexeme, through
 * `knowledge_chunks_matching` (the knowledge read model's migrations), which keeps the planner from trading
 * the index for a scan that would unpack every passage's terms once per term.
 */
const HITS_BY_INDEX = `
       SELECT c.content_sha256, c.chunk_index, q.word, max(q.weight) AS weight
       FROM selected q CROSS JOIN LATERAL knowledge_chunks_matching(q.scoped::tsquery) c
       WHERE c.assistant_id = $1 AND (SELECT chunks FROM total) > $9
       GROUP BY c.content_sha256, c.chunk_index, q.word`;

/**
 * Every passage of the assistant, its terms unpacked once: the selected terms are marked (weight A, every
 * other lexeme D) and only they are kept, so a passage yields its few matching terms rather than its two
 * hundred lexemes.
 */
const HITS_BY_READING_PASSAGES = `
       SELECT c.content_sha256, c.chunk_index, q.word, max(q.weight) AS weight
       FROM knowledge_chunks c
       CROSS JOIN LATERAL unnest(tsvector_to_array(ts_filter(
         setweight(setweight(c.terms, 'D'), 'A', (SELECT array_agg(term) FROM selected)), '{a}'))) AS l(lexeme)
       JOIN selected q ON q.term = l.lexeme
       WHERE c.assistant_id = $1 AND (SELECT chunks FROM total) <= $9
       GROUP BY c.content_sha256, c.chunk_index, q.word`;

/** The assistant's curated Q&A beside the passages, in qa_id order (as curated-answers.queries.ts `forAssistant` reads them). */
const CURATED_ROWS = `UNION ALL
     SELECT 'qa', qa_id, NULL, NULL, question, answer, NULL, row_number() OVER (ORDER BY qa_id)
     FROM curated_answers WHERE assistant_id = $1`;

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
  input: { assistantId: string; question: string | AnalysedQuestion; k?: number },
  tuning: RetrievalTuning = defaultRetrievalTuning,
): Promise<RetrievedPassage[]> {
  return (await search(db, input, tuning, false)).passages;
}

/** An assistant's curated Q&A as the answer engines match them (knowledge/curated/). */
export interface CuratedQa {
  qa_id: string;
  question: string;
  answer: string;
}

/**
 * `retrieve`, with the assistant's curated Q&A read in the same statement (a chat turn's retrieval and its
 * curated answer are one round trip). `curated` is undefined when no statement was needed for the
 * passages (a question without searchable words): the caller reads the Q&A itself then.
 */
export async function retrieveWithCurated(
  db: Queryable,
  input: { assistantId: string; question: string | AnalysedQuestion; k?: number },
  tuning: RetrievalTuning = defaultRetrievalTuning,
): Promise<{ passages: RetrievedPassage[]; curated: CuratedQa[] | undefined }> {
  return search(db, input, tuning, true);
}

async function search(
  db: Queryable,
  { assistantId, question, k = 5 }: { assistantId: string; question: string | AnalysedQuestion; k?: number },
  tuning: RetrievalTuning,
  withCurated: boolean,
): Promise<{ passages: RetrievedPassage[]; curated: CuratedQa[] | undefined }> {
  const { words } = typeof question === 'string' ? analyseQuestion(question) : question;
  if (words.length === 0 || k <= 0) return { passages: [], curated: undefined };
  const forms = words.flatMap((word, index) =>
    word.forms.map((form) => ({
      term: form.term,
      word: index,
      factor: form.factor,
      // A word that only names the kind of answer ("כמה עולה", "price") weighs less than the subject: the
      // passage about the kettle should come before the one page that happens to say "עולה".
      cue: word.cueOf && !word.hint ? tuning.cueFactor : 1,
    })),
  );

  // One statement (a chat turn's retrieval is one round trip): each form's document frequency and the
  // assistant's passage count give its weight, the inverse document frequency (rare words decide); the
  // rarest forms are kept until the posting budget is spent (the rarest always); then a small knowledge
  // base is read passage by passage, each passage's terms unpacked once, and a large one asks the GIN index
  // term by term — the same hits either way (a term matches exactly its lexeme), the branch not taken
  // gated off by its one-time filter on the passage count. Each form's statistics are looked up by the
  // index (LATERAL … OFFSET 0): joined as a set, the planner read all of the assistant's ~10,000 term rows
  // to hash them against the question's sixty-odd forms (3.4 ms of a 15 ms statement); the asked query is
  // built once, not for each passage re-ranked. The statement is kept prepared on each connection: its
  // planning cost about 2 ms idle and up to 12 ms on a busy machine, every chat turn.
  const { rows } = await db.query<{
    kind: 'passage' | 'qa';
    file_id: string;
    filename: string;
    source_url: string | null;
    section: string | null;
    text: string;
    score: number;
    rank: string;
  }>(
    `WITH forms AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::float8[], $7::float8[])
         WITH ORDINALITY AS f(term, quoted, scoped, word, factor, cue, ord)
     ), total AS (
       SELECT chunks FROM knowledge_assistant_stats WHERE assistant_id = $1
     ), scored AS (
       SELECT f.term, f.quoted, f.scoped, f.word, f.ord, s.chunks AS df,
              ln(1 + (t.chunks::float8 - s.chunks + 0.5) / (s.chunks::float8 + 0.5)) * f.factor * f.cue AS weight
       FROM forms f
       CROSS JOIN LATERAL (
         SELECT chunks FROM knowledge_term_stats WHERE assistant_id = $1 AND term = f.term OFFSET 0
       ) s
       CROSS JOIN total t
     ), budgeted AS (
       SELECT *, row_number() OVER w AS rank, sum(df) OVER w AS postings FROM scored
       WINDOW w AS (ORDER BY df, ord ROWS UNBOUNDED PRECEDING)
     ), selected AS (
       SELECT term, quoted, scoped, word, weight, rank FROM budgeted WHERE rank = 1 OR postings <= $8
     ), hits AS (${HITS_BY_READING_PASSAGES}
       UNION ALL${HITS_BY_INDEX}
     ), first_pass AS (
       SELECT content_sha256, chunk_index, sum(weight) AS lexical FROM hits
       GROUP BY content_sha256, chunk_index
       ORDER BY lexical DESC, content_sha256, chunk_index
       LIMIT $10
     ), asked AS MATERIALIZED (
       SELECT string_agg(quoted, ' | ' ORDER BY rank)::tsquery AS query FROM selected
     ), scored_passages AS (
       SELECT f.id AS file_id, f.filename, f.source_url, c.section, c.text, p.content_sha256, p.chunk_index,
              (p.lexical + $11 * ts_rank_cd(c.terms, a.query, 2)) AS score
       FROM first_pass p
       CROSS JOIN asked a
       JOIN knowledge_chunks c ON c.assistant_id = $1 AND c.content_sha256 = p.content_sha256 AND c.chunk_index = p.chunk_index
       JOIN knowledge_contents ct ON ct.assistant_id = $1 AND ct.content_sha256 = p.content_sha256
       JOIN knowledge_files f ON f.id = ct.file_id
     ), passages AS (
       SELECT file_id, filename, source_url, section, text, score,
              row_number() OVER (ORDER BY score DESC, content_sha256, chunk_index) AS rank
       FROM scored_passages
     )
     SELECT 'passage' AS kind, file_id, filename, source_url, section, text, score, rank FROM passages WHERE rank <= $12
     ${withCurated ? CURATED_ROWS : ''}`,
    [
      assistantId,
      forms.map((form) => form.term),
      forms.map((form) => toOrTsquery([form.term])),
      forms.map((form) => toScopedTsquery(form.term, assistantId)),
      forms.map((form) => form.word),
      forms.map((form) => form.factor),
      forms.map((form) => form.cue),
      tuning.postingBudget,
      tuning.readPassagesUpTo,
      Math.max(tuning.rerankDepth, k),
      tuning.proximityWeight,
      k,
    ],
    { prepared: true },
  );
  const byRank = (a: { rank: string }, b: { rank: string }) => Number(a.rank) - Number(b.rank);
  const passages = rows
    .filter((row) => row.kind === 'passage')
    .sort(byRank)
    .map((row) => ({
      fileId: row.file_id,
      filename: row.filename,
      sourceUrl: row.source_url,
      section: row.section,
      text: row.text,
      score: Number(row.score),
    }));
  const curated = withCurated
    ? rows
        .filter((row) => row.kind === 'qa')
        .sort(byRank)
        .map((row) => ({ qa_id: row.file_id, question: row.section!, answer: row.text }))
    : undefined;
  return { passages, curated };
}
