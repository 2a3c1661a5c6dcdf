import { curatedAnswerQueries } from '@kesher/projections/curated-answers/curated-answers.queries';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';
import type { RetrievedPassage } from '../search/retrieve.js';
import { createCuratedMatcher, type CuratedMatch } from './curated-match.js';

/** How a curated answer is named as a source; the client shows it in the reader's language by the `qa_` id. */
export const CURATED_SOURCE_NAME = 'Answer from the owner';

/** The matched Q&A as the passage the engines read first (RetrievedPassage.curated). */
export function curatedPassage(match: CuratedMatch): RetrievedPassage {
  return {
    fileId: match.qa.qaId,
    filename: CURATED_SOURCE_NAME,
    sourceUrl: null,
    section: match.qa.question,
    text: match.qa.answer,
    score: 1 + match.confidence,
    curated: true,
  };
}

/**
 * The assistant's curated answer for a question, read from the Q&A read model at every question: a Q&A
 * just added, edited or deleted answers (or stops answering) as soon as the read model has it.
 */
export function createCuratedLookup(db: SqlExecutor, options: { cachedAssistants?: number } = {}) {
  const queries = curatedAnswerQueries(db);
  const cachedAssistants = options.cachedAssistants ?? 200;
  // Analysing the Pro plan's 1,000 questions takes about 1.5 s on the 2-core machine (matching one question
  // against them 10-22 ms; bench-results/answers.json, curated.match_1000_qa): each assistant's analysed
  // questions are kept while its Q&A read the same, so a question pays only the match.
  const matchers = new Map<string, { key: string; match: ReturnType<typeof createCuratedMatcher> }>();
  /** The question matched against the assistant's Q&A as just read. */
  function matchIn(
    assistantId: string,
    rows: readonly { qa_id: string; question: string; answer: string }[],
    question: string,
  ): CuratedMatch | null {
    if (rows.length === 0) {
      matchers.delete(assistantId);
      return null;
    }
    const key = rows.map((row) => `${row.qa_id}\u0000${row.question}\u0000${row.answer}`).join('\u0001');
    let cached = matchers.get(assistantId);
    if (!cached || cached.key !== key) {
      cached = {
        key,
        match: createCuratedMatcher(
          rows.map((row) => ({ qaId: row.qa_id, question: row.question, answer: row.answer })),
        ),
      };
      matchers.delete(assistantId);
      if (matchers.size >= cachedAssistants) matchers.delete(matchers.keys().next().value!);
    } else matchers.delete(assistantId);
    matchers.set(assistantId, cached);
    return cached.match(question);
  }
  const lookup = async (input: { assistantId: string; question: string }): Promise<CuratedMatch | null> =>
    matchIn(input.assistantId, await queries.forAssistant(input.assistantId), input.question);
  return Object.assign(lookup, {
    /** The match against Q&A the caller read with something else (retrieval's statement, retrieveWithCurated). */
    matchIn,
  });
}
