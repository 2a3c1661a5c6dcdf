import type { Queryable } from '@kesher/contracts/ports/projection';

export interface CuratedAnswerRow {
  qa_id: string;
  assistant_id: string;
  question: string;
  answer: string;
  hits_30d: number;
  /** ISO 8601, UTC. */
  created_at: string;
}

const COLUMNS = `a.qa_id, a.assistant_id, a.question, a.answer,
  (SELECT count(*)::int FROM curated_answer_hits h WHERE h.qa_id = a.qa_id AND h.at > $NOW::timestamptz - interval '30 days') AS hits_30d,
  to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

/** The owner's Q&A: every owner-facing query is scoped by owner, so one owner never reads another's. */
export function curatedAnswerQueries(db: Queryable) {
  return {
    /** One assistant's Q&A, oldest first, with their hits in the 30 days before `now`. */
    async list(ownerId: string, assistantId: string, now: Date): Promise<CuratedAnswerRow[]> {
      const { rows } = await db.query<CuratedAnswerRow>(
        `SELECT ${COLUMNS.replace('$NOW', '$3')} FROM curated_answers a WHERE a.owner_id = $1 AND a.assistant_id = $2 ORDER BY a.created_at, a.qa_id`,
        [ownerId, assistantId, now.toISOString()],
      );
      return rows;
    },
    async find(ownerId: string, qaId: string, now: Date): Promise<CuratedAnswerRow | undefined> {
      const { rows } = await db.query<CuratedAnswerRow>(
        `SELECT ${COLUMNS.replace('$NOW', '$3')} FROM curated_answers a WHERE a.owner_id = $1 AND a.qa_id = $2`,
        [ownerId, qaId, now.toISOString()],
      );
      return rows[0];
    },
    /** System read for the answer engines: the assistant's questions and answers (the run already names the assistant). */
    async forAssistant(assistantId: string): Promise<{ qa_id: string; question: string; answer: string }[]> {
      const { rows } = await db.query<{ qa_id: string; question: string; answer: string }>(
        `SELECT qa_id, question, answer FROM curated_answers WHERE assistant_id = $1 ORDER BY qa_id`,
        [assistantId],
      );
      return rows;
    },
  };
}
