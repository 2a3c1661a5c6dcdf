import type {
  FeedbackGiven,
  MessagePosted,
  RecordedEvent,
  RunCompleted,
  RunExpired,
  RunFailed,
  RunRequested,
  RunStarted,
  ThreadDeleted,
  ThreadRenamed,
  ThreadStarted,
} from '@kesher/contracts';
import type { Projection, Queryable } from '../projection.js';

type Handler = (db: Queryable, event: RecordedEvent) => Promise<void>;
const on = <Data>(apply: (db: Queryable, data: Data, event: RecordedEvent) => Promise<unknown>): Handler => (db, event) => apply(db, event.data as Data, event).then(() => undefined);

/** Settled runs are never reopened: a late or repeated outcome changes nothing here either. */
const UNSETTLED = `status IN ('queued', 'in_progress')`;

const handlers: Record<string, Handler> = {
  ThreadStarted: on<ThreadStarted>((db, t, event) =>
    db.query(
      `INSERT INTO threads (id, assistant_id, assistant_owner_id, owner_id, visitor_session_hash, is_public, channel, title, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, '', $8) ON CONFLICT (id) DO NOTHING`,
      [t.threadId, t.assistantId, t.assistantOwnerId, t.ownerId, t.visitorSessionHash, t.isPublic, t.channel, event.metadata.timestamp],
    ),
  ),
  MessagePosted: on<MessagePosted>((db, m, event) =>
    db.query(
      `INSERT INTO thread_messages (id, thread_id, role, text, language, run_id, log_position, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM threads WHERE id = $2)
       ON CONFLICT (id) DO NOTHING`,
      [m.messageId, m.threadId, m.role, m.text, m.language, m.runId, event.position.commit.toString(), event.metadata.timestamp],
    ),
  ),
  RunRequested: on<RunRequested>((db, r, event) =>
    db.query(
      `INSERT INTO thread_runs (id, thread_id, assistant_id, status, deadline_at, created_at)
       SELECT $1, $2, $3, 'queued', $4, $5 WHERE EXISTS (SELECT 1 FROM threads WHERE id = $2)
       ON CONFLICT (id) DO NOTHING`,
      [r.runId, r.threadId, r.assistantId, r.deadlineAt, event.metadata.timestamp],
    ),
  ),
  RunStarted: on<RunStarted>((db, r) => db.query(`UPDATE thread_runs SET status = 'in_progress' WHERE id = $1 AND status = 'queued'`, [r.runId])),
  RunCompleted: on<RunCompleted>(async (db, r, event) => {
    await db.query(`UPDATE thread_runs SET status = 'completed', message_id = $2, settled_at = $3, referred_url = $4 WHERE id = $1 AND ${UNSETTLED}`, [
      r.runId,
      r.messageId,
      event.metadata.timestamp,
      r.referredUrl,
    ]);
    await db.query(`UPDATE thread_messages SET sources = $2::jsonb WHERE id = $1`, [r.messageId, JSON.stringify(r.sources)]);
  }),
  RunFailed: on<RunFailed>((db, r, event) =>
    db.query(`UPDATE thread_runs SET status = 'failed', error = $2, settled_at = $3 WHERE id = $1 AND ${UNSETTLED}`, [r.runId, r.error, event.metadata.timestamp]),
  ),
  RunExpired: on<RunExpired>((db, r, event) =>
    db.query(`UPDATE thread_runs SET status = 'expired', settled_at = $2 WHERE id = $1 AND ${UNSETTLED}`, [r.runId, event.metadata.timestamp]),
  ),
  ThreadRenamed: on<ThreadRenamed>((db, t) => db.query(`UPDATE threads SET title = $2 WHERE id = $1`, [t.threadId, t.title])),
  ThreadDeleted: on<ThreadDeleted>(async (db, t) => {
    await db.query(`DELETE FROM thread_feedback WHERE thread_id = $1`, [t.threadId]);
    await db.query(`DELETE FROM thread_runs WHERE thread_id = $1`, [t.threadId]);
    await db.query(`DELETE FROM thread_messages WHERE thread_id = $1`, [t.threadId]);
    await db.query(`DELETE FROM threads WHERE id = $1`, [t.threadId]);
  }),
  FeedbackGiven: on<FeedbackGiven>((db, f, event) =>
    db.query(
      `INSERT INTO thread_feedback (message_id, author_key, thread_id, assistant_id, rating, comment, source, is_public, given_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (message_id, author_key) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, given_at = excluded.given_at`,
      [f.messageId, f.authorKey, f.threadId, f.assistantId, f.rating, f.comment, f.source, f.isPublic, event.metadata.timestamp],
    ),
  ),
};

/** Conversations: threads, their messages, runs and feedback, as the chat and the Chat History read them. */
export const threadsProjection: Projection = {
  name: 'threads',
  version: 1,
  eventTypes: Object.keys(handlers),
  tables: ['threads', 'thread_messages', 'thread_runs', 'thread_feedback'],
  async setup(db) {
    await db.query(`CREATE TABLE IF NOT EXISTS threads (
      id text PRIMARY KEY,
      assistant_id text NOT NULL,
      assistant_owner_id text NOT NULL,
      owner_id text,
      visitor_session_hash text,
      is_public boolean NOT NULL,
      channel text NOT NULL,
      title text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await db.query(`CREATE INDEX IF NOT EXISTS threads_assistant ON threads (assistant_owner_id, assistant_id, created_at DESC)`);
    await db.query(`CREATE TABLE IF NOT EXISTS thread_messages (
      id text PRIMARY KEY,
      thread_id text NOT NULL,
      role text NOT NULL,
      text text NOT NULL,
      language text NOT NULL,
      run_id text,
      sources jsonb NOT NULL DEFAULT '[]',
      log_position bigint NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await db.query(`CREATE INDEX IF NOT EXISTS thread_messages_thread ON thread_messages (thread_id, log_position, id)`);
    await db.query(`CREATE TABLE IF NOT EXISTS thread_runs (
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
    )`);
    await db.query(`CREATE INDEX IF NOT EXISTS thread_runs_thread ON thread_runs (thread_id)`);
    await db.query(`CREATE INDEX IF NOT EXISTS thread_runs_unsettled ON thread_runs (deadline_at) WHERE ${UNSETTLED}`);
    await db.query(`CREATE TABLE IF NOT EXISTS thread_feedback (
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
    )`);
  },
  async reset(db) {
    await db.query(`DROP TABLE IF EXISTS thread_feedback, thread_runs, thread_messages, threads`);
  },
  async apply(db, events) {
    for (const event of events) await handlers[event.type]?.(db, event);
  },
};
