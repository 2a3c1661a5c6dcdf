import { curatedAnswerQueries } from '@kesher/projections/curated-answers/curated-answers.queries';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';
import type { RetrievedPassage } from '../search/retrieve.js';
import { createCuratedMatcher, type CuratedMatch } from './curated-match.js';

/** How a curated answer is named as a source; the client shows it in the reader's language by the `qa_` id. */
export const CURATED_SOURCE_NAME = 'Answer from the owner';

/** The matched Q&A as the passage the engines read first (RetrievedPassage.curated). */
export function curatedPassage(match: CuratedMatch): RetrievedPassage {
  return { fileId: match.qa.qaId, filename: CURATED_SOURCE_NAME, sourceUrl: null, section: match.qa.question, text: match.qa.answer, score: 1 + match.confidence, curated: true };
}

/**
 * The assistant's curated answer for a question, read from the Q&A read model at every question: a Q&A
 * just added, edited or deleted answers (or stops answering) as soon as the read model has it.
 */
export function createCuratedLookup(db: SqlExecutor) {
  const queries = curatedAnswerQueries(db);
  return async (input: { assistantId: string; question: string }): Promise<CuratedMatch | null> => {
    const rows = await queries.forAssistant(input.assistantId);
    if (rows.length === 0) return null;
    return createCuratedMatcher(rows.map((row) => ({ qaId: row.qa_id, question: row.question, answer: row.answer })))(input.question);
  };
}
