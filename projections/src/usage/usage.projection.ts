import { usageMonth, type MessagePosted, type RecordedEvent, type ThreadDeleted, type ThreadStarted } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';

const EVENT_TYPES = ['ThreadStarted', 'MessagePosted', 'ThreadDeleted'];

/**
 * One statement per kind of change, in the order a conversation's facts happen (it starts, messages come,
 * it may be deleted), so a batch ends as event-by-event application would; the messages are summed per
 * conversation and month before they are added.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const started = events.flatMap((e) => (e.type === 'ThreadStarted' ? [e.data as ThreadStarted] : []));
  if (started.length) {
    await db.query(
      `INSERT INTO usage_threads (thread_id, assistant_owner_id, assistant_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
      [started.map((t) => t.threadId), started.map((t) => t.assistantOwnerId), started.map((t) => t.assistantId)],
    );
  }
  const counts = new Map<string, { threadId: string; month: string; n: number }>();
  for (const event of events) {
    const m = event.data as MessagePosted;
    if (event.type !== 'MessagePosted' || m.role !== 'user') continue;
    // The month of the moment the message was posted (the command's time, UTC), not of this replay.
    const month = usageMonth(new Date(event.metadata.timestamp));
    const key = `${m.threadId}|${month}`;
    const count = counts.get(key) ?? { threadId: m.threadId, month, n: 0 };
    count.n++;
    counts.set(key, count);
  }
  if (counts.size) {
    const rows = [...counts.values()];
    await db.query(
      `INSERT INTO usage_monthly_messages (owner_id, assistant_id, month, messages)
       SELECT t.assistant_owner_id, t.assistant_id, c.month, sum(c.n)::int
       FROM unnest($1::text[], $2::text[], $3::int[]) AS c(thread_id, month, n) JOIN usage_threads t ON t.thread_id = c.thread_id
       GROUP BY t.assistant_owner_id, t.assistant_id, c.month
       ON CONFLICT (owner_id, month, assistant_id) DO UPDATE SET messages = usage_monthly_messages.messages + excluded.messages`,
      [rows.map((r) => r.threadId), rows.map((r) => r.month), rows.map((r) => r.n)],
    );
  }
  // A deleted conversation's messages were still received: the counts stay, only the lookup goes.
  const deleted = events.flatMap((e) => (e.type === 'ThreadDeleted' ? [(e.data as ThreadDeleted).threadId] : []));
  if (deleted.length) await db.query(`DELETE FROM usage_threads WHERE thread_id = ANY($1::text[])`, [deleted]);
}

/**
 * Plan usage: the user messages each owner's assistants received per calendar month (UTC), visitors'
 * public conversations included — what the plan's monthly message limit counts. Kept apart from the
 * threads read model so that deleting a conversation does not give its messages back.
 */
export const usageProjection: Projection = {
  name: 'usage',
  version: 1,
  eventTypes: EVENT_TYPES,
  tables: ['usage_threads', 'usage_monthly_messages'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS usage_threads (
  thread_id text PRIMARY KEY,
  assistant_owner_id text NOT NULL,
  assistant_id text NOT NULL
);
CREATE TABLE IF NOT EXISTS usage_monthly_messages (
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  month text NOT NULL,
  messages integer NOT NULL,
  PRIMARY KEY (owner_id, month, assistant_id)
);
`,
    },
  ],
  apply: applyBatch,
};
