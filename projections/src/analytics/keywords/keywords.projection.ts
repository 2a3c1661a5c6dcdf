import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { factsOf } from '../shared/facts.js';
import { rowsFrom, rowsParam } from '../shared/json-rows.js';
import { threadDirectory } from '../shared/thread-directory.js';
import { keywordsOf } from './keyword-extraction.js';

const threads = threadDirectory('analytics_keyword_threads');

/** `customer`: what visitors and the owner asked; `assistant`: what the assistant answered. */
export type KeywordSource = 'customer' | 'assistant';

/**
 * Keyword mentions per owner, assistant, day and side of the conversation: a message mentions a keyword
 * once however often it repeats it. Any range's ranking is the sum of its days.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  await threads.record(db, events);
  const posted = factsOf(events, 'MessagePosted');
  if (posted.length === 0) return;
  const known = await threads.lookup(
    db,
    posted.map((m) => m.data.threadId),
  );
  const rows = new Map<
    string,
    {
      ownerId: string;
      assistantId: string;
      day: string;
      source: KeywordSource;
      key: string;
      label: string;
      mentions: number;
    }
  >();
  for (const message of posted) {
    const thread = known.get(message.data.threadId);
    if (!thread) continue;
    const source: KeywordSource = message.data.role === 'user' ? 'customer' : 'assistant';
    const prefix = `${thread.ownerId}|${thread.assistantId}|${message.day}|${source}|`;
    // An erased message (docs/privacy.md) has no words left to count; a rebuild after an erasure thereby
    // forgets what the erased conversations mentioned, while the live counts keep them (they name no one).
    if (message.data.text === '[erased]') continue;
    for (const keyword of keywordsOf(message.data.text)) {
      const id = prefix + keyword.key;
      const row = rows.get(id);
      if (row) row.mentions++;
      else
        rows.set(id, {
          ownerId: thread.ownerId,
          assistantId: thread.assistantId,
          day: message.day,
          source,
          key: keyword.key,
          label: keyword.label,
          mentions: 1,
        });
    }
  }
  if (rows.size === 0) return;
  await db.query(
    `INSERT INTO analytics_keywords_daily (owner_id, source, day, assistant_id, keyword, label, mentions)
     ${rowsFrom(1, ['text', 'text', 'date', 'text', 'text', 'text', 'int'])}
     ON CONFLICT (owner_id, source, day, assistant_id, keyword) DO UPDATE SET mentions = analytics_keywords_daily.mentions + excluded.mentions`,
    [rowsParam([...rows.values()].map((r) => [r.ownerId, r.source, r.day, r.assistantId, r.key, r.label, r.mentions]))],
  );
}

/** Customer and assistant keywords per owner, assistant and day (Hebrew and English, stop words out). */
export const keywordsProjection: Projection = {
  name: 'analytics-keywords',
  version: 1,
  eventTypes: ['ThreadStarted', 'MessagePosted'],
  tables: [threads.table, 'analytics_keywords_daily'],
  migrations: [
    {
      id: '001-tables',
      sql: `
${threads.migration}
CREATE TABLE IF NOT EXISTS analytics_keywords_daily (
  owner_id text NOT NULL,
  source text NOT NULL,
  day date NOT NULL,
  assistant_id text NOT NULL,
  keyword text NOT NULL,
  label text NOT NULL,
  mentions int NOT NULL,
  PRIMARY KEY (owner_id, source, day, assistant_id, keyword)
);
`,
    },
  ],
  apply: applyBatch,
};
