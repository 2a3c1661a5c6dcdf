import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineBatchProjection, type EventOf } from '../../shared/typed-projection.js';
import { dayOf } from '../shared/facts.js';
import { rowsFrom, rowsParam } from '../shared/json-rows.js';
import { threadDirectory, type ThreadInfo } from '../shared/thread-directory.js';
import { keywordsOf, type Keyword } from './keyword-extraction.js';
import { ERASED_TEXT, sourceOf } from './retained-keywords.js';

const threads = threadDirectory('analytics_keyword_threads');
/** Per conversation, how many of its messages' words were counted from their text (see KeywordsRetained below). */
const COUNTED = 'analytics_keyword_thread_counts';

/** `customer`: what visitors and the owner asked; `assistant`: what the assistant answered. */
export type KeywordSource = 'customer' | 'assistant';

type KeywordEvent = EventOf<'ThreadStarted' | 'MessagePosted' | 'KeywordsRetained'>;

interface KeywordRow {
  ownerId: string;
  assistantId: string;
  day: string;
  source: KeywordSource;
  key: string;
  label: string;
  mentions: number;
}

/**
 * The batch's rows, grouped by owner, assistant, day and side, then by keyword: a message's words share
 * the group, and a keyword key (the same string every time, from keywordsOf's memory) is a cheap key.
 */
type KeywordRows = Map<string, Map<string, KeywordRow>>;

/** Adds one message's keywords to the batch's rows (a message mentions a keyword once however often it repeats it). */
function count(
  rows: KeywordRows,
  thread: ThreadInfo,
  day: string,
  source: KeywordSource,
  keywords: readonly Keyword[],
) {
  if (keywords.length === 0) return;
  const group = `${thread.ownerId}|${thread.assistantId}|${day}|${source}`;
  let byKey = rows.get(group);
  if (!byKey) rows.set(group, (byKey = new Map()));
  for (const keyword of keywords) {
    const row = byKey.get(keyword.key);
    if (!row) {
      byKey.set(keyword.key, {
        ownerId: thread.ownerId,
        assistantId: thread.assistantId,
        day,
        source,
        key: keyword.key,
        label: keyword.label,
        mentions: 1,
      });
      continue;
    }
    row.mentions++;
    // The shown form is the least of those written (code-point order, as COLLATE "C" below): the same
    // whichever message came first, so a replay that counts an erased conversation's words later agrees.
    if (keyword.label < row.label) row.label = keyword.label;
  }
}

/**
 * Keyword mentions per owner, assistant, day and side of the conversation. Any range's ranking is the sum
 * of its days.
 *
 * Erasure (docs/privacy.md): an erased message's text reads "[erased]" and has no words to count, so
 * before a conversation's key is shredded its keywords are recorded as KeywordsRetained, on its own stream
 * after its messages. Live, its messages were counted from their text already; on a replay after the
 * erasure, none were. Which of them were is a prefix of its sealed messages (the projector reads them in
 * log order, and a text once erased stays erased), so the read model keeps per conversation how many it
 * counted, and KeywordsRetained adds the ones after those. Live counts, counts after the erasure and
 * counts after a replay from zero are thereby the same.
 */
async function applyBatch(db: Queryable, events: readonly KeywordEvent[]) {
  const recorded = await threads.record(db, events);
  const threadIds: string[] = [];
  const retainedIds: string[] = [];
  for (const event of events) {
    if (event.type === 'MessagePosted') threadIds.push(event.data.threadId);
    if (event.type === 'KeywordsRetained') {
      threadIds.push(event.data.threadId);
      retainedIds.push(event.data.threadId);
    }
  }
  if (threadIds.length === 0) return;
  const known = await threads.lookup(db, threadIds, recorded);
  const countedBefore = new Map<string, number>();
  if (retainedIds.length > 0) {
    const { rows } = await db.query<{ thread_id: string; counted: number }>(
      `SELECT thread_id, counted FROM ${COUNTED} WHERE thread_id = ANY($1::text[])`,
      [retainedIds],
    );
    for (const row of rows) countedBefore.set(row.thread_id, Number(row.counted));
  }

  const rows: KeywordRows = new Map();
  const countedNow = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'MessagePosted') {
      const thread = known.get(event.data.threadId);
      if (!thread || event.data.text === ERASED_TEXT) continue;
      countedNow.set(event.data.threadId, (countedNow.get(event.data.threadId) ?? 0) + 1);
      count(rows, thread, dayOf(event.metadata.timestamp), sourceOf(event.data.role), keywordsOf(event.data.text));
    } else if (event.type === 'KeywordsRetained') {
      const thread = known.get(event.data.threadId);
      if (!thread) continue;
      const counted = (countedBefore.get(event.data.threadId) ?? 0) + (countedNow.get(event.data.threadId) ?? 0);
      // Messages stored in clear before the codec are read (and counted) on every replay: not sealed ones.
      const sealedCounted = Math.max(0, counted - event.data.plain);
      for (const message of event.data.messages.slice(sealedCounted))
        count(rows, thread, message.day, message.source, message.keywords);
      // The conversation's messages now all count as counted, live and on a replay alike.
      const missing = event.data.plain + event.data.messages.length - counted;
      if (missing > 0) countedNow.set(event.data.threadId, (countedNow.get(event.data.threadId) ?? 0) + missing);
    }
  }
  if (rows.size === 0 && countedNow.size === 0) return;
  // One statement: the counts per conversation and the keyword rows.
  await db.query(
    `WITH counted AS (
       INSERT INTO ${COUNTED} (thread_id, counted) ${rowsFrom(2, ['text', 'int'])}
       ON CONFLICT (thread_id) DO UPDATE SET counted = ${COUNTED}.counted + excluded.counted
     )
     INSERT INTO analytics_keywords_daily (owner_id, source, day, assistant_id, keyword, label, mentions)
     ${rowsFrom(1, ['text', 'text', 'date', 'text', 'text', 'text', 'int'])}
     ON CONFLICT (owner_id, source, day, assistant_id, keyword) DO UPDATE
       SET mentions = analytics_keywords_daily.mentions + excluded.mentions,
           label = LEAST(analytics_keywords_daily.label COLLATE "C", excluded.label COLLATE "C")`,
    [
      rowsParam(
        [...rows.values()].flatMap((byKey) =>
          [...byKey.values()].map((r) => [r.ownerId, r.source, r.day, r.assistantId, r.key, r.label, r.mentions]),
        ),
      ),
      rowsParam([...countedNow]),
    ],
  );
}

/** Customer and assistant keywords per owner, assistant and day (Hebrew and English, stop words out). */
export const keywordsProjection = defineBatchProjection({
  name: 'analytics-keywords',
  // 2: an erased conversation's words stay counted, on a replay too (KeywordsRetained).
  version: 2,
  eventTypes: ['ThreadStarted', 'MessagePosted', 'KeywordsRetained'],
  tables: [threads.table, 'analytics_keywords_daily', COUNTED],
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
    {
      id: '002-counted-per-thread',
      sql: `CREATE TABLE IF NOT EXISTS ${COUNTED} (
  thread_id text PRIMARY KEY,
  counted int NOT NULL
);`,
    },
  ],
  applyBatch,
});
