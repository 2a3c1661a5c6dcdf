import type { RecordedEvent } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { factsOf } from './facts.js';
import { rowsFrom, rowsParam, type SqlType } from './json-rows.js';

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

    /**
     * Records the batch's new threads; call it before `lookup` so that a thread's own later facts in the
     * batch find it. Returns the threads it recorded: a conversation's facts mostly follow its start
     * closely, so most of a batch's facts are about threads started in the same batch, and `lookup` need
     * not read those back.
     */
    async record(
      db: Queryable,
      events: readonly RecordedEvent[],
      /** With a `spoken` column (the daily activity's): the threads to record as spoken already. */
      spoken?: ReadonlySet<string>,
    ): Promise<Map<string, ThreadInfo>> {
      const recorded = new Map<string, ThreadInfo>();
      const started = factsOf(events, 'ThreadStarted');
      if (started.length === 0) return recorded;
      const batch = new Map<string, ThreadInfo>();
      for (const t of started)
        if (!batch.has(t.data.threadId))
          batch.set(t.data.threadId, {
            ownerId: t.data.assistantOwnerId,
            assistantId: t.data.assistantId,
            channel: t.data.channel,
            participant: participantOf(t.data),
          });
      // Only the rows inserted now are returned: a thread already known keeps its stored row.
      const columns = ['thread_id', 'owner_id', 'assistant_id', 'channel', 'participant'];
      const rowsOf = [...batch].map(([id, t]): (string | boolean)[] => [
        id,
        t.ownerId,
        t.assistantId,
        t.channel,
        t.participant,
      ]);
      const types: SqlType[] = ['text', 'text', 'text', 'text', 'text'];
      if (spoken) {
        columns.push('spoken');
        types.push('boolean');
        for (const [i, id] of [...batch.keys()].entries()) rowsOf[i]!.push(spoken.has(id));
      }
      const { rows } = await db.query<{ thread_id: string }>(
        `INSERT INTO ${table} (${columns.join(', ')})
         ${rowsFrom(1, types)} ON CONFLICT (thread_id) DO NOTHING RETURNING thread_id`,
        [rowsParam(rowsOf)],
      );
      for (const { thread_id } of rows) {
        const thread = batch.get(thread_id);
        if (thread) recorded.set(thread_id, thread);
      }
      return recorded;
    },

    /**
     * The known threads among `threadIds`; facts of unknown threads are skipped by the caller. Those in
     * `recorded` (what `record` returned for this batch) are taken from it, the others read.
     */
    async lookup(
      db: Queryable,
      threadIds: Iterable<string>,
      recorded: ReadonlyMap<string, ThreadInfo> = new Map(),
    ): Promise<Map<string, ThreadInfo>> {
      const known = new Map<string, ThreadInfo>();
      const ids = new Set<string>();
      for (const id of threadIds) {
        const thread = recorded.get(id);
        if (thread) known.set(id, thread);
        else ids.add(id);
      }
      if (ids.size === 0) return known;
      const { rows } = await db.query<{
        thread_id: string;
        owner_id: string;
        assistant_id: string;
        channel: string;
        participant: string;
      }>(
        `SELECT thread_id, owner_id, assistant_id, channel, participant FROM ${table} WHERE thread_id = ANY($1::text[])`,
        [[...ids]],
      );
      for (const r of rows)
        known.set(r.thread_id, {
          ownerId: r.owner_id,
          assistantId: r.assistant_id,
          channel: r.channel,
          participant: r.participant,
        });
      return known;
    },
  };
}

export const participantOf = (thread: { ownerId: string | null; visitorSessionHash: string | null }) =>
  thread.ownerId ? `account:${thread.ownerId}` : `visitor:${thread.visitorSessionHash ?? 'unknown'}`;
