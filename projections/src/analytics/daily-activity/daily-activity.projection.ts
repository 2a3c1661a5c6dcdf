import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { counterBatch } from '../shared/counter-upsert.js';
import { factsOf } from '../shared/facts.js';
import { rowsFrom, rowsParam } from '../shared/json-rows.js';
import { threadDirectory } from '../shared/thread-directory.js';

const threads = threadDirectory('analytics_activity_threads');

/** Tracked queries without an assistant, and their channel, in the daily table's keys. */
export const NO_ASSISTANT = '';
export const TRACKED_CHANNEL = 'tracked';

const daily = () =>
  counterBatch({
    table: 'analytics_daily_activity',
    keys: { owner_id: 'text', day: 'date', assistant_id: 'text', channel: 'text' },
    counters: {
      conversations: 'int',
      queries: 'int',
      queries_he: 'int',
      queries_en: 'int',
      queries_other: 'int',
      answers: 'int',
      tracked_queries: 'int',
      feedback: 'int',
      runs_completed: 'int',
      runs_failed: 'int',
      runs_expired: 'int',
      prompt_tokens: 'bigint',
      completion_tokens: 'bigint',
    },
  });

const totals = () =>
  counterBatch({
    table: 'analytics_owner_totals',
    keys: { owner_id: 'text' },
    counters: { conversations: 'bigint', messages: 'bigint', feedback: 'bigint' },
  });

/**
 * Every event is counted on the day it happened, under its assistant and channel; the owner's all-time
 * totals (what the live counters show) move with them. People are remembered per owner with the first
 * and last day they wrote, which is what "users in the range" needs: ranges always end today, so a
 * person wrote in the range exactly when their last day is in it.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const facts = factsOf(
    events,
    'MessagePosted',
    'RunCompleted',
    'RunFailed',
    'RunExpired',
    'FeedbackGiven',
    'QueryTracked',
  );
  // Plain loops, not flatMap: a rebuild passes a million facts through here.
  const threadIds: string[] = [];
  const spokenIds = new Set<string>();
  for (const f of facts) {
    if (f.type === 'QueryTracked') continue;
    threadIds.push(f.data.threadId);
    if (f.type === 'MessagePosted') spokenIds.add(f.data.threadId);
  }
  // A conversation counts from its first message, on that message's day: anybody can open empty threads
  // through a share link by the dozen (issue 21 item 13), and those are not conversations. The threads
  // this batch counts for the first time are marked, so a later message does not count them again: the
  // ones it starts are recorded marked already (no second write of each new row), the others updated.
  const recorded = await threads.record(db, events, spokenIds);
  const known = await threads.lookup(db, threadIds, recorded);
  const firstSpoken = new Set<string>();
  const spoken: string[] = [];
  for (const id of spokenIds) {
    if (recorded.has(id)) firstSpoken.add(id);
    else spoken.push(id);
  }
  if (spoken.length) {
    const { rows } = await db.query<{ thread_id: string }>(
      `UPDATE ${threads.table} SET spoken = true WHERE thread_id = ANY($1::text[]) AND NOT spoken RETURNING thread_id`,
      [spoken],
    );
    for (const row of rows) firstSpoken.add(row.thread_id);
  }
  const days = daily();
  const owners = totals();
  const people = new Map<string, { ownerId: string; participant: string; first: string; last: string }>();

  for (const fact of facts) {
    if (fact.type === 'QueryTracked') {
      const { ownerId, assistantId } = fact.data;
      days.add(
        { owner_id: ownerId, day: fact.day, assistant_id: assistantId ?? NO_ASSISTANT, channel: TRACKED_CHANNEL },
        { tracked_queries: 1 },
      );
      continue;
    }
    const thread = known.get(fact.data.threadId);
    // A fact of a conversation whose start this read model never saw: nothing to attribute it to.
    if (!thread) continue;
    const key = { owner_id: thread.ownerId, day: fact.day, assistant_id: thread.assistantId, channel: thread.channel };
    switch (fact.type) {
      case 'MessagePosted':
        if (firstSpoken.delete(fact.data.threadId)) {
          days.add(key, { conversations: 1 });
          owners.add({ owner_id: thread.ownerId }, { conversations: 1 });
        }
        owners.add({ owner_id: thread.ownerId }, { messages: 1 });
        if (fact.data.role === 'assistant') {
          days.add(key, { answers: 1 });
          break;
        }
        days.add(key, { queries: 1, [`queries_${fact.data.language}`]: 1 });
        {
          const id = `${thread.ownerId}|${thread.participant}`;
          const person = people.get(id);
          if (person) person.last = fact.day > person.last ? fact.day : person.last;
          else
            people.set(id, {
              ownerId: thread.ownerId,
              participant: thread.participant,
              first: fact.day,
              last: fact.day,
            });
        }
        break;
      case 'RunCompleted':
        days.add(key, {
          runs_completed: 1,
          prompt_tokens: fact.data.promptTokens,
          completion_tokens: fact.data.completionTokens,
        });
        break;
      case 'RunFailed':
        days.add(key, { runs_failed: 1 });
        break;
      case 'RunExpired':
        days.add(key, { runs_expired: 1 });
        break;
      case 'FeedbackGiven':
        days.add(key, { feedback: 1 });
        owners.add({ owner_id: thread.ownerId }, { feedback: 1 });
        break;
    }
  }
  await days.write(db);
  await owners.write(db);
  if (people.size > 0) {
    const rows = [...people.values()];
    await db.query(
      `INSERT INTO analytics_participants (owner_id, participant, first_day, last_day)
       ${rowsFrom(1, ['text', 'text', 'date', 'date'])}
       ON CONFLICT (owner_id, participant) DO UPDATE SET first_day = least(analytics_participants.first_day, excluded.first_day), last_day = greatest(analytics_participants.last_day, excluded.last_day)`,
      [rowsParam(rows.map((r) => [r.ownerId, r.participant, r.first, r.last]))],
    );
  }
}

/**
 * Daily activity per owner, assistant and channel: conversations, queries (by language), answers,
 * tracked queries, feedback given, runs by outcome and tokens; each owner's all-time totals (the live
 * counters); the people who wrote, with their first and last day.
 */
export const dailyActivityProjection: Projection = {
  name: 'analytics-activity',
  // 2: conversations are counted from their first message (rebuilt so that past empty threads drop out).
  version: 2,
  eventTypes: [
    'ThreadStarted',
    'MessagePosted',
    'RunCompleted',
    'RunFailed',
    'RunExpired',
    'FeedbackGiven',
    'QueryTracked',
  ],
  tables: [threads.table, 'analytics_daily_activity', 'analytics_owner_totals', 'analytics_participants'],
  migrations: [
    {
      id: '001-tables',
      sql: `
${threads.migration}
CREATE TABLE IF NOT EXISTS analytics_daily_activity (
  owner_id text NOT NULL,
  day date NOT NULL,
  assistant_id text NOT NULL,
  channel text NOT NULL,
  conversations int NOT NULL DEFAULT 0,
  queries int NOT NULL DEFAULT 0,
  queries_he int NOT NULL DEFAULT 0,
  queries_en int NOT NULL DEFAULT 0,
  queries_other int NOT NULL DEFAULT 0,
  answers int NOT NULL DEFAULT 0,
  tracked_queries int NOT NULL DEFAULT 0,
  feedback int NOT NULL DEFAULT 0,
  runs_completed int NOT NULL DEFAULT 0,
  runs_failed int NOT NULL DEFAULT 0,
  runs_expired int NOT NULL DEFAULT 0,
  prompt_tokens bigint NOT NULL DEFAULT 0,
  completion_tokens bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (owner_id, day, assistant_id, channel)
);
CREATE TABLE IF NOT EXISTS analytics_owner_totals (
  owner_id text PRIMARY KEY,
  conversations bigint NOT NULL DEFAULT 0,
  messages bigint NOT NULL DEFAULT 0,
  feedback bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS analytics_participants (
  owner_id text NOT NULL,
  participant text NOT NULL,
  first_day date NOT NULL,
  last_day date NOT NULL,
  PRIMARY KEY (owner_id, participant)
);
CREATE INDEX IF NOT EXISTS analytics_participants_last ON analytics_participants (owner_id, last_day);
CREATE INDEX IF NOT EXISTS analytics_participants_first ON analytics_participants (owner_id, first_day);
`,
    },
    {
      // Whether the conversation has had its first message, and so has been counted.
      id: '002-spoken',
      sql: `ALTER TABLE ${threads.table} ADD COLUMN IF NOT EXISTS spoken boolean NOT NULL DEFAULT false;`,
    },
  ],
  apply: applyBatch,
};
