import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, type DayRange, type OwnerScope } from '../shared/owner-scope.js';
import { ERASED } from './answer-sources.projection.js';

export interface CuratedHitsSummary {
  /** Completed answers in the range. */
  answers: number;
  /** Of them, answered from the owner's Q&A. */
  curated: number;
  /** Of them, answered with no source at all (abstentions included). */
  unsourced: number;
  /** The Q&A that answered most in the range, most first (a deleted Q&A is counted above, not listed). */
  top: { qaId: string; assistantId: string; question: string; hits: number }[];
}

export interface UnansweredQuestion {
  assistantId: string;
  /** The newest wording of the question. */
  question: string;
  /** How many times it was asked (and answered with no source) in the range. */
  times: number;
  lastAskedAt: Date;
  /** The conversation it was last asked in (a Q&A added from the list names it). */
  threadId: string;
}

/**
 * The WHERE of one owner's (or every owner's) rows of `table` (aliased `alias`) in a day range, optionally
 * of one assistant; the day is `dayExpr`. Parameters are appended to `params`.
 */
function where(
  alias: string,
  scope: OwnerScope,
  range: DayRange,
  dayExpr: string,
  params: unknown[],
  assistantId?: string | null,
) {
  const clauses: string[] = [];
  if ('ownerId' in scope) {
    params.push(scope.ownerId);
    clauses.push(`${alias}.owner_id = $${params.length}`);
  }
  params.push(range.from, range.to);
  clauses.push(`${dayExpr} BETWEEN $${params.length - 1}::date AND $${params.length}::date`);
  if (assistantId != null) {
    params.push(assistantId);
    clauses.push(`${alias}.assistant_id = $${params.length}`);
  }
  return clauses.join(' AND ');
}

const ANSWERED_DAY = `(r.answered_at AT TIME ZONE 'UTC')::date`;

/** Curated answers' hits and the questions answered with no source (issue 26 item 4); always scoped by owner. */
export function answerSourceQueries(db: Queryable) {
  return {
    async curatedHits(
      scope: OwnerScope,
      range: DayRange,
      options: { assistantId?: string | null; top: number },
    ): Promise<CuratedHitsSummary> {
      const params: unknown[] = [];
      const runs = where('r', scope, range, ANSWERED_DAY, params, options.assistantId);
      const { rows: totals } = await db.query<{ answers: unknown; curated: unknown; unsourced: unknown }>(
        `SELECT count(*) AS answers,
                count(*) FILTER (WHERE r.kind = 'curated') AS curated,
                count(*) FILTER (WHERE r.kind = 'unsourced') AS unsourced
         FROM analytics_answer_runs r WHERE r.kind IS NOT NULL AND ${runs}`,
        params,
      );
      const topParams: unknown[] = [];
      const hits = where('h', scope, range, 'h.day', topParams, options.assistantId);
      topParams.push(options.top);
      const { rows: top } = await db.query<{ qa_id: string; assistant_id: string; question: string; hits: unknown }>(
        `SELECT h.qa_id, h.assistant_id, q.question, count(*) AS hits
         FROM analytics_curated_hits h JOIN analytics_curated_qa q ON q.qa_id = h.qa_id
         WHERE NOT q.deleted AND ${hits}
         GROUP BY h.qa_id, h.assistant_id, q.question ORDER BY hits DESC, h.qa_id LIMIT $${topParams.length}`,
        topParams,
      );
      return {
        answers: num(totals[0]?.answers),
        curated: num(totals[0]?.curated),
        unsourced: num(totals[0]?.unsourced),
        top: top.map((row) => ({
          qaId: row.qa_id,
          assistantId: row.assistant_id,
          question: row.question,
          hits: num(row.hits),
        })),
      };
    },

    /**
     * Visitors' questions answered with no source in the range, the same question counted once, newest
     * first. A question the owner has since made a Q&A of (the same words, or a Q&A added from that
     * conversation after it was asked) and an erased one are left out; `among` keeps only those assistants'
     * (the ones that still exist, so every question listed can become a Q&A). `total` counts every listed
     * question's askings, `questions` the distinct questions, before the limit.
     */
    async unanswered(
      scope: OwnerScope,
      range: DayRange,
      options: { assistantId?: string | null; limit: number; among?: readonly string[] },
    ): Promise<{ total: number; questions: number; list: UnansweredQuestion[] }> {
      const params: unknown[] = [];
      let runs = where('r', scope, range, ANSWERED_DAY, params, options.assistantId);
      if (options.among) {
        params.push([...options.among]);
        runs += ` AND r.assistant_id = ANY($${params.length}::text[])`;
      }
      params.push(options.limit);
      const { rows } = await db.query<{
        assistant_id: string;
        question: string;
        times: unknown;
        last_asked_at: Date;
        thread_id: string;
        total: unknown;
        questions: unknown;
      }>(
        `WITH open AS (
           SELECT r.* FROM analytics_answer_runs r
           WHERE r.kind = 'unsourced' AND r.visitor AND r.question_key <> '' AND r.question <> '${ERASED}' AND ${runs}
             AND NOT EXISTS (
               SELECT 1 FROM analytics_curated_qa q
               WHERE q.assistant_id = r.assistant_id AND NOT q.deleted
                 AND (q.question_key = r.question_key OR (q.source_thread_id = r.thread_id AND q.created_at >= r.asked_at)))
         ), grouped AS (
           SELECT DISTINCT ON (assistant_id, question_key) assistant_id, question_key, question, thread_id, asked_at AS last_asked_at,
                  count(*) OVER (PARTITION BY assistant_id, question_key) AS times
           FROM open ORDER BY assistant_id, question_key, asked_at DESC, run_id DESC
         )
         SELECT assistant_id, question, times, last_asked_at, thread_id,
                sum(times) OVER () AS total, count(*) OVER () AS questions
         FROM grouped ORDER BY last_asked_at DESC, question_key LIMIT $${params.length}`,
        params,
      );
      return {
        total: num(rows[0]?.total),
        questions: num(rows[0]?.questions),
        list: rows.map((row) => ({
          assistantId: row.assistant_id,
          question: row.question,
          times: num(row.times),
          lastAskedAt: new Date(row.last_asked_at),
          threadId: row.thread_id,
        })),
      };
    },
  };
}

export type AnswerSourceQueries = ReturnType<typeof answerSourceQueries>;
