import type { RecordedEvent } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { factsOf } from './facts.js';
import { rowsFrom, rowsParam } from './json-rows.js';

/** What an analytics read model needs to know of a conversation to attribute its later facts. */
export interface ThreadInfo {
  ownerId: string;
  assistantId: string;
  channel: string;
  /** Who writes in it: `account:<id>` (the owner) or `visitor:<session hash>`. */
  participant: string;
}

/**
 * Messages, runs and feedback name their thread only; the thread's start names the assistant, its owner
 * and the channel. Each analytics read model keeps its own copy of that lookup (a read model owns all of
 * its tables, so it can be dropped and rebuilt alone). Rows are never deleted: a deleted conversation's
 * facts still happened, and are still counted.
 */
export function threadDirectory(table: string) {
  return {
    table,
    migration: `CREATE TABLE IF NOT EXISTS ${table} (
  thread_id text PRIMARY KEY,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  channel text NOT NULL,
  participant text NOT NULL
);`,

    /** Records the batch's new threads; call it before `lookup` so that a thread's own later facts in the batch find it. */
    async record(db: Queryable, events: readonly RecordedEvent[]) {
      const started = factsOf(events, 'ThreadStarted');
      if (started.length === 0) return;
      await db.query(
        `INSERT INTO ${table} (thread_id, owner_id, assistant_id, channel, participant)
         ${rowsFrom(1, ['text', 'text', 'text', 'text', 'text'])} ON CONFLICT (thread_id) DO NOTHING`,
        [
          rowsParam(
            started.map((t) => [
              t.data.threadId,
              t.data.assistantOwnerId,
              t.data.assistantId,
              t.data.channel,
              participantOf(t.data),
            ]),
          ),
        ],
      );
    },

    /** The known threads among `threadIds`; facts of unknown threads are skipped by the caller. */
    async lookup(db: Queryable, threadIds: Iterable<string>): Promise<Map<string, ThreadInfo>> {
      const ids = [...new Set(threadIds)];
      if (ids.length === 0) return new Map();
      const { rows } = await db.query<{
        thread_id: string;
        owner_id: string;
        assistant_id: string;
        channel: string;
        participant: string;
      }>(
        `SELECT thread_id, owner_id, assistant_id, channel, participant FROM ${table} WHERE thread_id = ANY($1::text[])`,
        [ids],
      );
      return new Map(
        rows.map((r) => [
          r.thread_id,
          { ownerId: r.owner_id, assistantId: r.assistant_id, channel: r.channel, participant: r.participant },
        ]),
      );
    },
  };
}

export const participantOf = (thread: { ownerId: string | null; visitorSessionHash: string | null }) =>
  thread.ownerId ? `account:${thread.ownerId}` : `visitor:${thread.visitorSessionHash ?? 'unknown'}`;
