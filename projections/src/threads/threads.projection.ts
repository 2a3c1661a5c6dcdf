import type { EventType } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineBatchProjection, eventsOf, type EventOf } from '../shared/typed-projection.js';

/** What an erased subject's text reads as (the event-log codec's placeholder, docs/privacy.md). */
const ERASED = '[erased]';

/** Settled runs are never reopened: a late or repeated outcome changes nothing here either. */
const UNSETTLED = `status IN ('queued', 'in_progress', 'requires_action')`;

type ThreadEvent = EventOf<(typeof EVENT_TYPES)[number]>;

const dataOf = <T extends EventType>(events: readonly ThreadEvent[], type: T) =>
  eventsOf(events, type).map((event) => ({ data: event.data, event }));

/** The last of several changes to one key wins, as if they were applied one after the other. */
function lastBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [key(item), item])).values()];
}

/**
 * A batch is applied with one statement per kind of change instead of one per event: under a busy chat
 * the projection's transactions stay short, and they hold back every reader of the log while open.
 * The kinds go in the order a conversation's facts can happen in — a thread starts, messages and runs are
 * added, runs start, then settle, the thread is renamed, feedback is given, and deletion ends it all — and
 * within a kind the effects commute or the first (a run's outcome) or last (a title, a rating) one is
 * kept explicitly. So the result is the one event-by-event application gives, for every order the thread
 * decider allows (it records nothing after a deletion and at most one outcome per run).
 */
async function applyBatch(db: Queryable, events: readonly ThreadEvent[]) {
  const started = dataOf(events, 'ThreadStarted');
  if (started.length) {
    await db.query(
      `INSERT INTO threads (id, assistant_id, assistant_owner_id, owner_id, visitor_session_hash, is_public, channel, title, created_at, share_token_hash)
       SELECT id, assistant_id, assistant_owner_id, owner_id, visitor_session_hash, is_public, channel, '', created_at, share_token_hash
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::timestamptz[], $9::text[])
         AS t(id, assistant_id, assistant_owner_id, owner_id, visitor_session_hash, is_public, channel, created_at, share_token_hash)
       ON CONFLICT (id) DO NOTHING`,
      [
        started.map((t) => t.data.threadId),
        started.map((t) => t.data.assistantId),
        started.map((t) => t.data.assistantOwnerId),
        started.map((t) => t.data.ownerId),
        started.map((t) => t.data.visitorSessionHash),
        started.map((t) => t.data.isPublic),
        started.map((t) => t.data.channel),
        started.map((t) => t.event.metadata.timestamp),
        started.map((t) => t.data.shareTokenHash ?? null),
      ],
    );
  }

  const posted = dataOf(events, 'MessagePosted');
  if (posted.length) {
    await db.query(
      `INSERT INTO thread_messages (id, thread_id, role, text, language, run_id, log_position, created_at)
       SELECT m.id, m.thread_id, m.role, m.text, m.language, m.run_id, m.log_position, m.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::timestamptz[])
         AS m(id, thread_id, role, text, language, run_id, log_position, created_at)
       WHERE EXISTS (SELECT 1 FROM threads WHERE id = m.thread_id)
       ON CONFLICT (id) DO NOTHING`,
      [
        posted.map((m) => m.data.messageId),
        posted.map((m) => m.data.threadId),
        posted.map((m) => m.data.role),
        posted.map((m) => m.data.text),
        posted.map((m) => m.data.language),
        posted.map((m) => m.data.runId),
        posted.map((m) => m.event.position.commit.toString()),
        posted.map((m) => m.event.metadata.timestamp),
      ],
    );
  }

  const requested = dataOf(events, 'RunRequested');
  if (requested.length) {
    await db.query(
      `INSERT INTO thread_runs (id, thread_id, assistant_id, status, deadline_at, created_at)
       SELECT r.id, r.thread_id, r.assistant_id, 'queued', r.deadline_at, r.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) AS r(id, thread_id, assistant_id, deadline_at, created_at)
       WHERE EXISTS (SELECT 1 FROM threads WHERE id = r.thread_id)
       ON CONFLICT (id) DO NOTHING`,
      [
        requested.map((r) => r.data.runId),
        requested.map((r) => r.data.threadId),
        requested.map((r) => r.data.assistantId),
        requested.map((r) => r.data.deadlineAt),
        requested.map((r) => r.event.metadata.timestamp),
      ],
    );
  }

  const runStarted = dataOf(events, 'RunStarted');
  if (runStarted.length) {
    await db.query(
      `UPDATE thread_runs r SET status = 'in_progress' FROM unnest($1::text[]) AS s(id) WHERE r.id = s.id AND r.status = 'queued'`,
      [runStarted.map((r) => r.data.runId)],
    );
  }

  // A run waiting for its actions reads requires_action until they are called (automation/run-automation.ts).
  for (const e of events) {
    if (e.type === 'RunActionsRequired')
      await db.query(`UPDATE thread_runs SET status = 'requires_action' WHERE id = $1 AND status = 'in_progress'`, [
        e.data.runId,
      ]);
    else if (e.type === 'ActionCalled')
      await db.query(`UPDATE thread_runs SET status = 'in_progress' WHERE id = $1 AND status = 'requires_action'`, [
        e.data.runId,
      ]);
  }

  // A run takes the first outcome recorded for it; a later one finds it settled and changes nothing.
  interface Outcome {
    runId: string;
    status: 'completed' | 'failed' | 'expired';
    messageId: string | null;
    referredUrl: string | null;
    error: string | null;
    at: string;
  }
  const outcomes = events.flatMap((e): Outcome[] => {
    if (e.type === 'RunCompleted') {
      const r = e.data;
      return [
        {
          runId: r.runId,
          status: 'completed',
          messageId: r.messageId,
          referredUrl: r.referredUrl,
          error: null,
          at: e.metadata.timestamp,
        },
      ];
    }
    if (e.type === 'RunFailed') {
      const r = e.data;
      return [
        {
          runId: r.runId,
          status: 'failed',
          messageId: null,
          referredUrl: null,
          error: r.error,
          at: e.metadata.timestamp,
        },
      ];
    }
    if (e.type === 'RunExpired')
      return [
        {
          runId: e.data.runId,
          status: 'expired',
          messageId: null,
          referredUrl: null,
          error: null,
          at: e.metadata.timestamp,
        },
      ];
    return [];
  });
  const firstOutcomes = lastBy([...outcomes].reverse(), (o) => o.runId);
  if (firstOutcomes.length) {
    await db.query(
      `UPDATE thread_runs r SET status = o.status,
         message_id = CASE WHEN o.status = 'completed' THEN o.message_id ELSE r.message_id END,
         referred_url = CASE WHEN o.status = 'completed' THEN o.referred_url ELSE r.referred_url END,
         error = CASE WHEN o.status = 'failed' THEN o.error ELSE r.error END,
         settled_at = o.settled_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS o(id, status, message_id, referred_url, error, settled_at)
       WHERE r.id = o.id AND r.${UNSETTLED}`,
      [
        firstOutcomes.map((o) => o.runId),
        firstOutcomes.map((o) => o.status),
        firstOutcomes.map((o) => o.messageId),
        firstOutcomes.map((o) => o.referredUrl),
        firstOutcomes.map((o) => o.error),
        firstOutcomes.map((o) => o.at),
      ],
    );
  }

  const completed = lastBy(dataOf(events, 'RunCompleted'), (c) => c.data.messageId);
  if (completed.length) {
    await db.query(
      `UPDATE thread_messages m SET sources = s.sources FROM unnest($1::text[], $2::jsonb[]) AS s(id, sources) WHERE m.id = s.id`,
      [completed.map((c) => c.data.messageId), completed.map((c) => JSON.stringify(c.data.sources))],
    );
  }

  const renamed = lastBy(dataOf(events, 'ThreadRenamed'), (t) => t.data.threadId);
  if (renamed.length) {
    await db.query(
      `UPDATE threads t SET title = s.title FROM unnest($1::text[], $2::text[]) AS s(id, title) WHERE t.id = s.id`,
      [renamed.map((t) => t.data.threadId), renamed.map((t) => t.data.title)],
    );
  }

  const feedback = lastBy(dataOf(events, 'FeedbackGiven'), (f) => `${f.data.messageId}|${f.data.authorKey}`);
  if (feedback.length) {
    await db.query(
      `INSERT INTO thread_feedback (message_id, author_key, thread_id, assistant_id, rating, comment, source, is_public, given_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::timestamptz[])
       ON CONFLICT (message_id, author_key) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, given_at = excluded.given_at`,
      [
        feedback.map((f) => f.data.messageId),
        feedback.map((f) => f.data.authorKey),
        feedback.map((f) => f.data.threadId),
        feedback.map((f) => f.data.assistantId),
        feedback.map((f) => f.data.rating),
        feedback.map((f) => f.data.comment),
        feedback.map((f) => f.data.source),
        feedback.map((f) => f.data.isPublic),
        feedback.map((f) => f.event.metadata.timestamp),
      ],
    );
  }

  // A channel's conversation is named after the customer (one inbox); the owner takes one over or hands it back.
  const contacts = started.filter((t) => t.data.contact?.name);
  if (contacts.length) {
    await db.query(
      `UPDATE threads t SET contact_name = s.name FROM unnest($1::text[], $2::text[]) AS s(id, name) WHERE t.id = s.id`,
      [contacts.map((t) => t.data.threadId), contacts.map((t) => t.data.contact!.name)],
    );
  }
  const takeovers = lastBy(
    events.flatMap((e) =>
      e.type === 'ThreadTakenOver' || e.type === 'ThreadHandedBack'
        ? [{ threadId: e.data.threadId, takenOver: e.type === 'ThreadTakenOver' }]
        : [],
    ),
    (t) => t.threadId,
  );
  if (takeovers.length) {
    await db.query(
      `UPDATE threads t SET taken_over = s.taken_over FROM unnest($1::text[], $2::boolean[]) AS s(id, taken_over) WHERE t.id = s.id`,
      [takeovers.map((t) => t.threadId), takeovers.map((t) => t.takenOver)],
    );
  }

  // A subject erased (docs/privacy.md): its fields read "[erased]" in the log from now on, and here too —
  // the same rows a replay from zero builds from the shredded events. Counts (messages, runs, ratings) stay.
  for (const { data } of dataOf(events, 'SubjectErased')) {
    const where: { sql: string; param: unknown } | undefined =
      data.subject === 'thread' && data.threadId
        ? { sql: `thread_id = ANY($1::text[])`, param: [data.threadId] }
        : data.subject === 'account' && data.ownerId
          ? {
              sql: `thread_id IN (SELECT id FROM threads WHERE assistant_owner_id = $1 OR owner_id = $1)`,
              param: data.ownerId,
            }
          : undefined;
    if (!where) continue;
    await db.query(`UPDATE thread_messages SET text = '${ERASED}' WHERE ${where.sql} AND text <> '${ERASED}'`, [
      where.param,
    ]);
    await db.query(
      `UPDATE thread_feedback SET comment = '${ERASED}' WHERE ${where.sql} AND comment IS NOT NULL AND comment <> '${ERASED}'`,
      [where.param],
    );
    await db.query(
      `UPDATE threads SET title = CASE WHEN title = '' THEN '' ELSE '${ERASED}' END,
         contact_name = CASE WHEN contact_name IS NULL THEN NULL ELSE '${ERASED}' END
       WHERE ${where.sql.replace('thread_id', 'id')}`,
      [where.param],
    );
  }

  const deleted = dataOf(events, 'ThreadDeleted').map((t) => t.data.threadId);
  if (deleted.length) {
    for (const table of ['thread_feedback', 'thread_runs', 'thread_messages'])
      await db.query(`DELETE FROM ${table} WHERE thread_id = ANY($1::text[])`, [deleted]);
    await db.query(`DELETE FROM threads WHERE id = ANY($1::text[])`, [deleted]);
  }
}

const EVENT_TYPES = [
  'ThreadStarted',
  'MessagePosted',
  'RunRequested',
  'RunStarted',
  'RunCompleted',
  'RunFailed',
  'RunExpired',
  'ThreadRenamed',
  'ThreadDeleted',
  'FeedbackGiven',
  'RunActionsRequired',
  'ActionCalled',
  'ThreadTakenOver',
  'ThreadHandedBack',
  'SubjectErased',
] as const;

/** Conversations: threads, their messages, runs and feedback, as the chat and the Chat History read them. */
export const threadsProjection = defineBatchProjection({
  name: 'threads',
  version: 2,
  eventTypes: EVENT_TYPES,
  tables: ['threads', 'thread_messages', 'thread_runs', 'thread_feedback'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS threads (
  id text PRIMARY KEY,
  assistant_id text NOT NULL,
  assistant_owner_id text NOT NULL,
  owner_id text,
  visitor_session_hash text,
  is_public boolean NOT NULL,
  channel text NOT NULL,
  title text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS threads_assistant ON threads (assistant_owner_id, assistant_id, created_at DESC);
CREATE TABLE IF NOT EXISTS thread_messages (
  id text PRIMARY KEY,
  thread_id text NOT NULL,
  role text NOT NULL,
  text text NOT NULL,
  language text NOT NULL,
  run_id text,
  sources jsonb NOT NULL DEFAULT '[]',
  log_position bigint NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_messages_thread ON thread_messages (thread_id, log_position, id);
CREATE TABLE IF NOT EXISTS thread_runs (
  id text PRIMARY KEY,
  thread_id text NOT NULL,
  assistant_id text NOT NULL,
  status text NOT NULL,
  error text,
  message_id text,
  referred_url text,
  deadline_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  settled_at timestamptz
);
CREATE INDEX IF NOT EXISTS thread_runs_thread ON thread_runs (thread_id);
CREATE INDEX IF NOT EXISTS thread_runs_unsettled ON thread_runs (deadline_at) WHERE ${UNSETTLED};
CREATE TABLE IF NOT EXISTS thread_feedback (
  message_id text NOT NULL,
  author_key text NOT NULL,
  thread_id text NOT NULL,
  assistant_id text NOT NULL,
  rating text NOT NULL,
  comment text,
  source text NOT NULL,
  is_public boolean NOT NULL,
  given_at timestamptz NOT NULL,
  PRIMARY KEY (message_id, author_key)
);
`,
    },
    {
      // The one inbox: the customer's name on a channel's conversation, and whether the owner took it over.
      id: '002-inbox',
      sql: `
ALTER TABLE threads ADD COLUMN IF NOT EXISTS contact_name text;
ALTER TABLE threads ADD COLUMN IF NOT EXISTS taken_over boolean NOT NULL DEFAULT false;
`,
    },
    {
      // The share link a visitor's thread was opened through (sha-256 of its token): once the owner rotates
      // or revokes it, the conversation is not readable through the public routes either (issue 21 item 15).
      // Version 2 rebuilds the table so that threads started before this column get theirs from the log.
      id: '003-share-link',
      sql: `ALTER TABLE threads ADD COLUMN IF NOT EXISTS share_token_hash text;`,
    },
  ],
  applyBatch,
});
