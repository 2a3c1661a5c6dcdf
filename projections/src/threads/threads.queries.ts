import { type Channel, conversationTitleFrom } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';

/**
 * Who reads: a signed-in owner (their own conversations, and visitors' conversations with their
 * assistants, as Chat History lists them), or the visitor holding a thread's session token (as a hash).
 */
export type ThreadReader = { ownerId: string } | { visitorSessionHash: string };

export interface ThreadRow {
  id: string;
  assistant_id: string;
  owner_id: string | null;
  is_public: boolean;
  channel: Channel;
  title: string;
  /** Seconds since epoch. */
  created_at: number;
  /** A visitor's thread: the sha-256 of the share token it was opened through (null: an owner's, a channel's, or recorded before). */
  share_token_hash: string | null;
}

export interface MessageRow {
  id: string;
  thread_id: string;
  role: 'user' | 'assistant';
  text: string;
  run_id: string | null;
  sources: { fileId: string; filename: string; sourceUrl: string | null; section: string | null }[];
  created_at: number;
}

export interface RunRow {
  id: string;
  thread_id: string;
  assistant_id: string;
  status: 'queued' | 'in_progress' | 'requires_action' | 'completed' | 'failed' | 'expired';
  error: string | null;
  message_id: string | null;
  deadline_at: Date;
  created_at: number;
  settled_at: number | null;
}

const epoch = (column: string) => `floor(extract(epoch FROM ${column}))::int AS ${column.split('.').pop()}`;
/** The first thing the chatter wrote: a conversation nobody renamed is titled after it. */
const FIRST_MESSAGE = `(SELECT f.text FROM thread_messages f WHERE f.thread_id = t.id AND f.role = 'user' ORDER BY f.log_position, f.id LIMIT 1) AS first_message`;
const THREAD_COLUMNS = `t.id, t.assistant_id, t.owner_id, t.is_public, t.channel, t.title, ${epoch('t.created_at')}, t.share_token_hash, ${FIRST_MESSAGE}`;

/** A thread as read: its title is the one given, or else its first message's (never stored: a rename still wins). */
function titled({ first_message, ...row }: ThreadRow & { first_message: string | null }): ThreadRow {
  return { ...row, title: row.title.trim() ? row.title : conversationTitleFrom(first_message) };
}

/** The WHERE clause that limits `t` (threads) to what the reader may see; `$1` is the reader's key. */
const scope = (reader: ThreadReader) =>
  'ownerId' in reader
    ? { clause: '(t.owner_id = $1 OR t.assistant_owner_id = $1)', key: reader.ownerId }
    : { clause: 't.visitor_session_hash = $1', key: reader.visitorSessionHash };

/** Every query is scoped by its reader: nobody reads a thread that is not theirs through these. */
export function threadQueries(db: Queryable) {
  return {
    async thread(reader: ThreadReader, threadId: string): Promise<ThreadRow | undefined> {
      const { clause, key } = scope(reader);
      const { rows } = await db.query<ThreadRow & { first_message: string | null }>(
        `SELECT ${THREAD_COLUMNS} FROM threads t WHERE ${clause} AND t.id = $2`,
        [key, threadId],
      );
      return rows[0] && titled(rows[0]);
    },

    async messages(reader: ThreadReader, threadId: string): Promise<MessageRow[]> {
      const { clause, key } = scope(reader);
      const { rows } = await db.query<MessageRow>(
        `SELECT m.id, m.thread_id, m.role, m.text, m.run_id, m.sources, ${epoch('m.created_at')}
         FROM thread_messages m JOIN threads t ON t.id = m.thread_id
         WHERE ${clause} AND m.thread_id = $2 ORDER BY m.log_position, m.id`,
        [key, threadId],
      );
      return rows;
    },

    /** One message of a thread (the answer a run posted), without reading the whole conversation. */
    async message(reader: ThreadReader, threadId: string, messageId: string): Promise<MessageRow | undefined> {
      const { clause, key } = scope(reader);
      const { rows } = await db.query<MessageRow>(
        `SELECT m.id, m.thread_id, m.role, m.text, m.run_id, m.sources, ${epoch('m.created_at')}
         FROM thread_messages m JOIN threads t ON t.id = m.thread_id
         WHERE ${clause} AND m.thread_id = $2 AND m.id = $3`,
        [key, threadId, messageId],
      );
      return rows[0];
    },

    async run(reader: ThreadReader, threadId: string, runId: string): Promise<RunRow | undefined> {
      const { clause, key } = scope(reader);
      const { rows } = await db.query<RunRow>(
        `SELECT r.id, r.thread_id, r.assistant_id, r.status, r.error, r.message_id, r.deadline_at, ${epoch('r.created_at')},
                CASE WHEN r.settled_at IS NULL THEN NULL ELSE floor(extract(epoch FROM r.settled_at))::int END AS settled_at
         FROM thread_runs r JOIN threads t ON t.id = r.thread_id
         WHERE ${clause} AND r.thread_id = $2 AND r.id = $3`,
        [key, threadId, runId],
      );
      return rows[0];
    },

    /**
     * Chat History: every conversation with one of the owner's assistants, public ones included — a
     * visitor's only from its first message: anybody can open empty ones by the dozen through a share link,
     * and they would bury the real conversations. (The owner's own New Chat is listed at once: it is theirs.)
     */
    async threadsOfAssistant(assistantOwnerId: string, assistantId: string): Promise<ThreadRow[]> {
      const { rows } = await db.query<ThreadRow & { first_message: string | null }>(
        `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.assistant_owner_id = $1 AND t.assistant_id = $2
           AND (NOT t.is_public OR EXISTS (SELECT 1 FROM thread_messages m WHERE m.thread_id = t.id))
         ORDER BY t.created_at DESC, t.id`,
        [assistantOwnerId, assistantId],
      );
      return rows.map(titled);
    },

    /** System reads (the ai-runner's expiry sweep): runs nobody settled before their deadline. */
    async overdueRuns(now: Date, limit = 100): Promise<{ id: string; thread_id: string }[]> {
      const { rows } = await db.query<{ id: string; thread_id: string }>(
        `SELECT id, thread_id FROM thread_runs WHERE status IN ('queued', 'in_progress', 'requires_action') AND deadline_at <= $1 ORDER BY deadline_at LIMIT $2`,
        [now.toISOString(), limit],
      );
      return rows;
    },
  };
}

export type ThreadQueries = ReturnType<typeof threadQueries>;
