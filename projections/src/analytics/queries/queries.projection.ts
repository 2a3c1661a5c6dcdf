import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { factsOf } from '../shared/facts.js';
import { rowsFrom, rowsParam } from '../shared/json-rows.js';
import { eventsOf } from '../../shared/typed-projection.js';

/** A query's text as listed: enough to recognise it, not a second copy of every conversation. */
export const QUERY_TEXT_CHARS = 1000;

type Status = 'pending' | 'success' | 'failed' | 'expired';

interface ThreadState {
  ownerId: string;
  assistantId: string;
  channel: string;
  lastQuestion: string | null;
}

interface QueryRow {
  id: string;
  ownerId: string;
  assistantId: string | null;
  threadId: string | null;
  query: string;
  channel: string | null;
  source: 'chat' | 'tracked';
  status: Status;
  responseTimeMs: number | null;
  createdAt: string;
}

/**
 * The queries list: each run of a conversation is one query — the user message it answers, and how it
 * ended (answered, failed, expired) with its response time — and each tracked query is one too. A run
 * answers the thread's latest user message at the time it was requested, so the batch is walked in log
 * order with each thread's latest question, starting from the one stored.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const facts = factsOf(
    events,
    'ThreadStarted',
    'MessagePosted',
    'RunRequested',
    'RunCompleted',
    'RunFailed',
    'RunExpired',
    'QueryTracked',
  );
  const threadIds = new Set<string>();
  for (const f of facts)
    if (f.type === 'ThreadStarted' || f.type === 'MessagePosted' || f.type === 'RunRequested')
      threadIds.add(f.data.threadId);
  const threads = new Map<string, ThreadState>();
  if (threadIds.size > 0) {
    const { rows } = await db.query<{
      thread_id: string;
      owner_id: string;
      assistant_id: string;
      channel: string;
      last_question: string | null;
    }>(
      `SELECT thread_id, owner_id, assistant_id, channel, last_question FROM analytics_query_threads WHERE thread_id = ANY($1::text[])`,
      [[...threadIds]],
    );
    for (const row of rows)
      threads.set(row.thread_id, {
        ownerId: row.owner_id,
        assistantId: row.assistant_id,
        channel: row.channel,
        lastQuestion: row.last_question,
      });
  }
  const touched = new Set<string>();
  const inserted: QueryRow[] = [];
  const outcomes = new Map<string, { status: Status; responseTimeMs: number | null }>();

  for (const fact of facts) {
    switch (fact.type) {
      case 'ThreadStarted':
        if (!threads.has(fact.data.threadId)) {
          threads.set(fact.data.threadId, {
            ownerId: fact.data.assistantOwnerId,
            assistantId: fact.data.assistantId,
            channel: fact.data.channel,
            lastQuestion: null,
          });
          touched.add(fact.data.threadId);
        }
        break;
      case 'MessagePosted': {
        const thread = threads.get(fact.data.threadId);
        if (!thread || fact.data.role !== 'user') break;
        thread.lastQuestion = fact.data.text.slice(0, QUERY_TEXT_CHARS);
        touched.add(fact.data.threadId);
        break;
      }
      case 'RunRequested': {
        const thread = threads.get(fact.data.threadId);
        if (!thread) break;
        inserted.push({
          id: fact.data.runId,
          ownerId: thread.ownerId,
          assistantId: thread.assistantId,
          threadId: fact.data.threadId,
          query: thread.lastQuestion ?? '',
          channel: thread.channel,
          source: 'chat',
          status: 'pending',
          responseTimeMs: null,
          createdAt: fact.event.metadata.timestamp,
        });
        break;
      }
      // A run's first outcome is its only one (the thread decider records no second).
      case 'RunCompleted':
        if (!outcomes.has(fact.data.runId))
          outcomes.set(fact.data.runId, { status: 'success', responseTimeMs: fact.data.responseMs });
        break;
      case 'RunFailed':
        if (!outcomes.has(fact.data.runId)) outcomes.set(fact.data.runId, { status: 'failed', responseTimeMs: null });
        break;
      case 'RunExpired':
        if (!outcomes.has(fact.data.runId)) outcomes.set(fact.data.runId, { status: 'expired', responseTimeMs: null });
        break;
      case 'QueryTracked':
        inserted.push({
          id: fact.data.queryId,
          ownerId: fact.data.ownerId,
          assistantId: fact.data.assistantId,
          threadId: null,
          query: fact.data.query.slice(0, QUERY_TEXT_CHARS),
          channel: null,
          source: 'tracked',
          status: fact.data.success ? 'success' : 'failed',
          responseTimeMs: fact.data.responseTimeMs,
          createdAt: fact.event.metadata.timestamp,
        });
        break;
    }
  }

  if (touched.size > 0) {
    const rows = [...touched].map((id) => [id, threads.get(id)!] as const);
    await db.query(
      `INSERT INTO analytics_query_threads (thread_id, owner_id, assistant_id, channel, last_question)
       ${rowsFrom(1, ['text', 'text', 'text', 'text', 'text'])}
       ON CONFLICT (thread_id) DO UPDATE SET last_question = excluded.last_question`,
      [rowsParam(rows.map(([id, t]) => [id, t.ownerId, t.assistantId, t.channel, t.lastQuestion]))],
    );
  }
  // A run requested and settled in the same batch is written settled: one row written instead of two.
  for (const row of inserted) {
    const outcome = row.source === 'chat' ? outcomes.get(row.id) : undefined;
    if (!outcome) continue;
    row.status = outcome.status;
    row.responseTimeMs = outcome.responseTimeMs;
    outcomes.delete(row.id);
  }
  if (inserted.length > 0) {
    await db.query(
      `INSERT INTO analytics_queries (id, owner_id, assistant_id, thread_id, query, channel, source, status, response_time_ms, created_at)
       ${rowsFrom(1, ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'float8', 'timestamptz'])}
       ON CONFLICT (id) DO NOTHING`,
      [
        rowsParam(
          inserted.map((q) => [
            q.id,
            q.ownerId,
            q.assistantId,
            q.threadId,
            q.query,
            q.channel,
            q.source,
            q.status,
            q.responseTimeMs,
            q.createdAt,
          ]),
        ),
      ],
    );
  }
  if (outcomes.size > 0) {
    const settled = [...outcomes];
    await db.query(
      `UPDATE analytics_queries q SET status = o.status, response_time_ms = o.response_time_ms
       FROM unnest($1::text[], $2::text[], $3::float8[]) AS o(id, status, response_time_ms) WHERE q.id = o.id AND q.status = 'pending'`,
      [settled.map(([id]) => id), settled.map(([, o]) => o.status), settled.map(([, o]) => o.responseTimeMs)],
    );
  }
}

/** What an erased subject's text reads as (docs/privacy.md): the queries stay counted, their words do not. */
const ERASED = '[erased]';

/** A subject erased: its questions read as a replay from the shredded log would write them. */
async function eraseSubjects(db: Queryable, events: readonly RecordedEvent[]) {
  for (const event of eventsOf(events, 'SubjectErased')) {
    const d = event.data;
    if (d.subject === 'thread' && d.threadId) {
      await db.query(
        `UPDATE analytics_query_threads SET last_question = '${ERASED}' WHERE thread_id = $1 AND last_question IS NOT NULL`,
        [d.threadId],
      );
      await db.query(`UPDATE analytics_queries SET query = '${ERASED}' WHERE thread_id = $1`, [d.threadId]);
    } else if (d.subject === 'account' && d.ownerId) {
      await db.query(
        `UPDATE analytics_query_threads SET last_question = '${ERASED}' WHERE owner_id = $1 AND last_question IS NOT NULL`,
        [d.ownerId],
      );
      await db.query(`UPDATE analytics_queries SET query = '${ERASED}' WHERE owner_id = $1`, [d.ownerId]);
    }
  }
}

/** Recent queries per owner: each conversation run (its question, how it ended) and each tracked query. */
export const queriesProjection: Projection = {
  name: 'analytics-queries',
  version: 1,
  eventTypes: [
    'ThreadStarted',
    'MessagePosted',
    'RunRequested',
    'RunCompleted',
    'RunFailed',
    'RunExpired',
    'QueryTracked',
    'SubjectErased',
  ],
  tables: ['analytics_query_threads', 'analytics_queries'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS analytics_query_threads (
  thread_id text PRIMARY KEY,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  channel text NOT NULL,
  last_question text
);
CREATE TABLE IF NOT EXISTS analytics_queries (
  id text PRIMARY KEY,
  owner_id text NOT NULL,
  assistant_id text,
  thread_id text,
  query text NOT NULL,
  channel text,
  source text NOT NULL,
  status text NOT NULL,
  response_time_ms float8,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS analytics_queries_owner ON analytics_queries (owner_id, created_at DESC);
CREATE INDEX IF NOT EXISTS analytics_queries_owner_assistant ON analytics_queries (owner_id, assistant_id, created_at DESC);
`,
    },
  ],
  async apply(db, events) {
    await applyBatch(db, events);
    await eraseSubjects(db, events);
  },
};
