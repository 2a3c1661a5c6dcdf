import { usageMonth } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineBatchProjection, eventsOf, type EventOf } from '../shared/typed-projection.js';

const EVENT_TYPES = [
  'ThreadStarted',
  'RunRequested',
  'RunCompleted',
  'RunFailed',
  'RunExpired',
  'ThreadDeleted',
] as const;

/**
 * One statement per kind of change, in the order a conversation's facts happen (it starts, runs are
 * requested and settle, it may be deleted), so a batch ends as event-by-event application would; the
 * answers are summed per conversation and month before they are added.
 */
async function applyBatch(db: Queryable, events: readonly EventOf<(typeof EVENT_TYPES)[number]>[]) {
  const started = eventsOf(events, 'ThreadStarted').map((e) => e.data);
  if (started.length) {
    await db.query(
      `INSERT INTO usage_threads (thread_id, assistant_owner_id, assistant_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
      [started.map((t) => t.threadId), started.map((t) => t.assistantOwnerId), started.map((t) => t.assistantId)],
    );
  }
  // Runs being answered: counted against the limit until they settle, so that answers in flight cannot
  // carry an owner past it; a failed or expired one gives its place back.
  const requested = eventsOf(events, 'RunRequested').map((e) => e.data);
  if (requested.length) {
    await db.query(
      `INSERT INTO usage_open_runs (run_id, thread_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
      [requested.map((r) => r.runId), requested.map((r) => r.threadId)],
    );
  }
  const counts = new Map<string, { threadId: string; month: string; n: number }>();
  for (const event of eventsOf(events, 'RunCompleted')) {
    const run = event.data;
    // The month of the moment the answer was recorded (UTC), not of this replay.
    const month = usageMonth(new Date(event.metadata.timestamp));
    const key = `${run.threadId}|${month}`;
    const count = counts.get(key) ?? { threadId: run.threadId, month, n: 0 };
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
  const settled = eventsOf(events, 'RunCompleted', 'RunFailed', 'RunExpired').map((e) => e.data.runId);
  if (settled.length) await db.query(`DELETE FROM usage_open_runs WHERE run_id = ANY($1::text[])`, [settled]);
  // A deleted conversation's answers were still given: the counts stay, only the lookup (and its runs that will never settle) go.
  const deleted = eventsOf(events, 'ThreadDeleted').map((e) => e.data.threadId);
  if (deleted.length) {
    await db.query(`DELETE FROM usage_open_runs WHERE thread_id = ANY($1::text[])`, [deleted]);
    await db.query(`DELETE FROM usage_threads WHERE thread_id = ANY($1::text[])`, [deleted]);
  }
}

/**
 * Plan usage: the messages each owner's assistants answered per calendar month (UTC), visitors' public
 * conversations included — what the plan's monthly message limit counts (issue 21 item 12: a message
 * refused, or whose answer failed or expired, costs the owner nothing) — and the runs still being
 * answered. Kept apart from the threads read model so that deleting a conversation does not give its
 * answers back.
 */
export const usageProjection = defineBatchProjection({
  name: 'usage',
  // 2: answers are counted instead of the chatters' messages (rebuilt so that this month's figure is one of answers).
  version: 2,
  eventTypes: EVENT_TYPES,
  tables: ['usage_threads', 'usage_monthly_messages', 'usage_open_runs'],
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
    {
      id: '002-open-runs',
      sql: `
CREATE TABLE IF NOT EXISTS usage_open_runs (
  run_id text PRIMARY KEY,
  thread_id text NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_open_runs_thread ON usage_open_runs (thread_id);
`,
    },
  ],
  applyBatch,
});
