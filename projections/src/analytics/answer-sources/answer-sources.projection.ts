import type { RecordedEvent, SubjectErased } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { isCuratedSourceId } from '../../curated-answers/curated-answers.projection.js';
import { factsOf } from '../shared/facts.js';
import { rowsFrom, rowsParam } from '../shared/json-rows.js';

/** What an erased subject's text reads as in the log (docs/privacy.md); such a question is never listed. */
export const ERASED = '[erased]';

/** A question kept for the list: enough to recognise it and to start a Q&A from it. */
export const QUESTION_CHARS = 1000;

/**
 * Two questions are "the same question" in the list when they differ only in case, spacing and the
 * punctuation around them ("Do you deliver?" and "do you deliver"): counted together, and a Q&A with that
 * question takes it off the list.
 */
export const questionKey = (text: string) =>
  text
    .normalize('NFKC')
    .toLocaleLowerCase()
    .replace(/[\s\u200f\u200e]+/g, ' ')
    .replace(/^[\s"'“”«»¿¡.,;:!?־-]+|[\s"'“”«».,;:!?־-]+$/g, '')
    .trim();

interface ThreadState {
  ownerId: string;
  assistantId: string;
  channel: string;
  /** A visitor's or a channel customer's conversation, not the owner's own test chat. */
  visitor: boolean;
  lastQuestion: string | null;
}

/** How a completed run was answered: from the owner's Q&A, from other knowledge, or from none at all. */
export type AnswerKind = 'curated' | 'sourced' | 'unsourced';

export const kindOf = (sources: readonly { fileId: string }[]): AnswerKind =>
  sources.some((s) => isCuratedSourceId(s.fileId)) ? 'curated' : sources.length > 0 ? 'sourced' : 'unsourced';

/**
 * Where answers came from (issue 26 item 4): each run of a conversation is its question and, once
 * completed, whether it was answered from the owner's Q&A (and which), from other sources, or with no
 * source at all (which includes the built-in engine's "I couldn't find an answer"). The dashboard counts
 * curated answers and ranks the Q&A by hits; the owner's list of questions answered with no source comes
 * from here. The Q&A's own questions are kept too, so a question the owner has since turned into a Q&A
 * leaves the list, and the ranking names each Q&A — a read model owns all of its tables and is rebuilt
 * alone (the curated-answers read model drops a deleted Q&A's hits; the figures here keep them, as every
 * analytics figure keeps what happened).
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const facts = factsOf(
    events,
    'ThreadStarted',
    'MessagePosted',
    'RunRequested',
    'RunCompleted',
    'AnswerCurated',
    'CuratedAnswerEdited',
    'CuratedAnswerDeleted',
  );
  const threadIds = new Set(
    facts.flatMap((f) => (f.type === 'MessagePosted' || f.type === 'RunRequested' ? [f.data.threadId] : [])),
  );
  const threads = new Map<string, ThreadState>();
  if (threadIds.size > 0) {
    const { rows } = await db.query<{
      thread_id: string;
      owner_id: string;
      assistant_id: string;
      channel: string;
      visitor: boolean;
      last_question: string | null;
    }>(
      `SELECT thread_id, owner_id, assistant_id, channel, visitor, last_question FROM analytics_answer_threads WHERE thread_id = ANY($1::text[])`,
      [[...threadIds]],
    );
    for (const row of rows)
      threads.set(row.thread_id, {
        ownerId: row.owner_id,
        assistantId: row.assistant_id,
        channel: row.channel,
        visitor: row.visitor,
        lastQuestion: row.last_question,
      });
  }
  const touched = new Set<string>();
  const requested: unknown[][] = [];
  const completed = new Map<string, { kind: AnswerKind; qaIds: string[]; at: string }>();

  for (const fact of facts) {
    switch (fact.type) {
      case 'ThreadStarted':
        if (!threads.has(fact.data.threadId)) {
          threads.set(fact.data.threadId, {
            ownerId: fact.data.assistantOwnerId,
            assistantId: fact.data.assistantId,
            channel: fact.data.channel,
            visitor: fact.data.ownerId === null,
            lastQuestion: null,
          });
          touched.add(fact.data.threadId);
        }
        break;
      case 'MessagePosted': {
        const thread = threads.get(fact.data.threadId);
        if (!thread || fact.data.role !== 'user') break;
        thread.lastQuestion = fact.data.text.slice(0, QUESTION_CHARS);
        touched.add(fact.data.threadId);
        break;
      }
      case 'RunRequested': {
        const thread = threads.get(fact.data.threadId);
        if (!thread) break;
        const question = thread.lastQuestion ?? '';
        requested.push([
          fact.data.runId,
          thread.ownerId,
          thread.assistantId,
          fact.data.threadId,
          thread.channel,
          thread.visitor,
          question,
          questionKey(question),
          fact.event.metadata.timestamp,
        ]);
        break;
      }
      // A run's first outcome is its only one (the thread decider records no second).
      case 'RunCompleted':
        if (!completed.has(fact.data.runId))
          completed.set(fact.data.runId, {
            kind: kindOf(fact.data.sources),
            qaIds: [...new Set(fact.data.sources.map((s) => s.fileId).filter(isCuratedSourceId))],
            at: fact.event.metadata.timestamp,
          });
        break;
      case 'AnswerCurated':
        // Writes in log order: a Q&A added and edited in one batch ends edited.
        await db.query(
          `INSERT INTO analytics_curated_qa (qa_id, owner_id, assistant_id, question, question_key, source_thread_id, created_at, deleted)
           VALUES ($1, $2, $3, $4, $5, $6, $7, false) ON CONFLICT (qa_id) DO NOTHING`,
          [
            fact.data.qaId,
            fact.data.ownerId,
            fact.data.assistantId,
            fact.data.question.slice(0, QUESTION_CHARS),
            questionKey(fact.data.question),
            fact.data.sourceThreadId ?? null,
            fact.event.metadata.timestamp,
          ],
        );
        break;
      case 'CuratedAnswerEdited':
        await db.query(`UPDATE analytics_curated_qa SET question = $2, question_key = $3 WHERE qa_id = $1`, [
          fact.data.qaId,
          fact.data.question.slice(0, QUESTION_CHARS),
          questionKey(fact.data.question),
        ]);
        break;
      case 'CuratedAnswerDeleted':
        // Its hits stay counted; its words go, and it no longer takes questions off the list.
        await db.query(
          `UPDATE analytics_curated_qa SET deleted = true, question = '', question_key = '' WHERE qa_id = $1`,
          [fact.data.qaId],
        );
        break;
    }
  }

  if (touched.size > 0) {
    const rows = [...touched].map((id) => [id, threads.get(id)!] as const);
    await db.query(
      `INSERT INTO analytics_answer_threads (thread_id, owner_id, assistant_id, channel, visitor, last_question)
       ${rowsFrom(1, ['text', 'text', 'text', 'text', 'boolean', 'text'])}
       ON CONFLICT (thread_id) DO UPDATE SET last_question = excluded.last_question`,
      [rowsParam(rows.map(([id, t]) => [id, t.ownerId, t.assistantId, t.channel, t.visitor, t.lastQuestion]))],
    );
  }
  if (requested.length > 0) {
    await db.query(
      `INSERT INTO analytics_answer_runs (run_id, owner_id, assistant_id, thread_id, channel, visitor, question, question_key, asked_at)
       ${rowsFrom(1, ['text', 'text', 'text', 'text', 'text', 'boolean', 'text', 'text', 'timestamptz'])}
       ON CONFLICT (run_id) DO NOTHING`,
      [rowsParam(requested)],
    );
  }
  if (completed.size > 0) {
    const settled = [...completed];
    // A run this read model never saw requested (its thread unknown) matches no row and is skipped.
    await db.query(
      `UPDATE analytics_answer_runs r SET kind = c.kind, answered_at = c.at
       FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS c(run_id, kind, at) WHERE r.run_id = c.run_id AND r.kind IS NULL`,
      [settled.map(([id]) => id), settled.map(([, c]) => c.kind), settled.map(([, c]) => c.at)],
    );
    const hits = settled.flatMap(([runId, c]) => c.qaIds.map((qaId) => [runId, qaId]));
    if (hits.length > 0)
      await db.query(
        `INSERT INTO analytics_curated_hits (run_id, qa_id, owner_id, assistant_id, day)
         SELECT h.run_id, h.qa_id, r.owner_id, r.assistant_id, (r.answered_at AT TIME ZONE 'UTC')::date
         FROM unnest($1::text[], $2::text[]) AS h(run_id, qa_id) JOIN analytics_answer_runs r ON r.run_id = h.run_id
         ON CONFLICT DO NOTHING`,
        [hits.map(([runId]) => runId), hits.map(([, qaId]) => qaId)],
      );
  }
}

/** A subject erased: its questions read as a replay from the shredded log would write them, and leave the list. */
async function eraseSubjects(db: Queryable, events: readonly RecordedEvent[]) {
  for (const event of events) {
    if (event.type !== 'SubjectErased') continue;
    const d = event.data as SubjectErased;
    if (d.subject === 'thread' && d.threadId) {
      await db.query(
        `UPDATE analytics_answer_threads SET last_question = '${ERASED}' WHERE thread_id = $1 AND last_question IS NOT NULL`,
        [d.threadId],
      );
      await db.query(
        `UPDATE analytics_answer_runs SET question = '${ERASED}', question_key = '${ERASED}' WHERE thread_id = $1`,
        [d.threadId],
      );
    } else if (d.subject === 'account' && d.ownerId) {
      await db.query(
        `UPDATE analytics_answer_threads SET last_question = '${ERASED}' WHERE owner_id = $1 AND last_question IS NOT NULL`,
        [d.ownerId],
      );
      await db.query(
        `UPDATE analytics_answer_runs SET question = '${ERASED}', question_key = '${ERASED}' WHERE owner_id = $1`,
        [d.ownerId],
      );
      await db.query(
        `UPDATE analytics_curated_qa SET question = '${ERASED}', question_key = '${ERASED}' WHERE owner_id = $1 AND NOT deleted`,
        [d.ownerId],
      );
    }
  }
}

export const answerSourcesProjection: Projection = {
  name: 'analytics-answer-sources',
  version: 1,
  eventTypes: [
    'ThreadStarted',
    'MessagePosted',
    'RunRequested',
    'RunCompleted',
    'AnswerCurated',
    'CuratedAnswerEdited',
    'CuratedAnswerDeleted',
    'SubjectErased',
  ],
  tables: ['analytics_answer_threads', 'analytics_answer_runs', 'analytics_curated_qa', 'analytics_curated_hits'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS analytics_answer_threads (
  thread_id text PRIMARY KEY,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  channel text NOT NULL,
  visitor boolean NOT NULL,
  last_question text
);
CREATE TABLE IF NOT EXISTS analytics_answer_runs (
  run_id text PRIMARY KEY,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  thread_id text NOT NULL,
  channel text NOT NULL,
  visitor boolean NOT NULL,
  question text NOT NULL,
  question_key text NOT NULL,
  asked_at timestamptz NOT NULL,
  kind text,
  answered_at timestamptz
);
CREATE INDEX IF NOT EXISTS analytics_answer_runs_owner ON analytics_answer_runs (owner_id, answered_at DESC);
CREATE TABLE IF NOT EXISTS analytics_curated_qa (
  qa_id text PRIMARY KEY,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  question text NOT NULL,
  question_key text NOT NULL,
  source_thread_id text,
  created_at timestamptz NOT NULL,
  deleted boolean NOT NULL
);
CREATE INDEX IF NOT EXISTS analytics_curated_qa_assistant ON analytics_curated_qa (assistant_id, question_key);
CREATE TABLE IF NOT EXISTS analytics_curated_hits (
  run_id text NOT NULL,
  qa_id text NOT NULL,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  day date NOT NULL,
  PRIMARY KEY (qa_id, run_id)
);
CREATE INDEX IF NOT EXISTS analytics_curated_hits_owner ON analytics_curated_hits (owner_id, day);
`,
    },
  ],
  async apply(db, events) {
    await applyBatch(db, events);
    await eraseSubjects(db, events);
  },
};
