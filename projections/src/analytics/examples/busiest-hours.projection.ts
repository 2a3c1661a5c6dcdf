import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { counterBatch } from '../shared/counter-upsert.js';
import { factsOf } from '../shared/facts.js';
import { threadDirectory } from '../shared/thread-directory.js';

/*
 * The worked example of docs/analytics.md: a new metric as one file. "When do customers write?" — user
 * messages per owner, weekday and hour (UTC). It is not in the registry; add it to
 * projections/src/registry.ts and run `npm run replay -- analytics-busiest-hours` to compute its history
 * from the whole log (services/src/analytics/backfill.int.test.ts does exactly that).
 */

const threads = threadDirectory('analytics_busiest_hours_threads');

async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  await threads.record(db, events);
  const questions = factsOf(events, 'MessagePosted').filter((m) => m.data.role === 'user');
  const known = await threads.lookup(
    db,
    questions.map((m) => m.data.threadId),
  );
  const hours = counterBatch({
    table: 'analytics_busiest_hours',
    keys: { owner_id: 'text', weekday: 'int', hour: 'int' },
    counters: { messages: 'int' },
  });
  for (const question of questions) {
    const thread = known.get(question.data.threadId);
    if (!thread) continue;
    const at = new Date(question.event.metadata.timestamp);
    hours.add({ owner_id: thread.ownerId, weekday: at.getUTCDay(), hour: at.getUTCHours() }, { messages: 1 });
  }
  await hours.write(db);
}

export const busiestHoursProjection: Projection = {
  name: 'analytics-busiest-hours',
  version: 1,
  eventTypes: ['ThreadStarted', 'MessagePosted'],
  tables: [threads.table, 'analytics_busiest_hours'],
  migrations: [
    {
      id: '001-tables',
      sql: `
${threads.migration}
CREATE TABLE IF NOT EXISTS analytics_busiest_hours (
  owner_id text NOT NULL,
  weekday int NOT NULL,
  hour int NOT NULL,
  messages int NOT NULL,
  PRIMARY KEY (owner_id, weekday, hour)
);
`,
    },
  ],
  apply: applyBatch,
};
