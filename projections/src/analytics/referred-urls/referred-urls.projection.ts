import type { PageCategory, RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { counterBatch } from '../shared/counter-upsert.js';
import { factsOf } from '../shared/facts.js';
import { threadDirectory } from '../shared/thread-directory.js';
import { classifyReferral } from './referral-classifier.js';

const threads = threadDirectory('analytics_referral_threads');

/** Addresses longer than this are cut: a referral key, not a document. */
const MAX_URL_CHARS = 2000;

/**
 * Referrals are the redirect markers of sales-mode answers (RunCompleted.referredUrl), counted per
 * owner, assistant, day and address with the type the address's words suggest. A page the crawler
 * categorised (PageFetched.salesCategory) is recorded too; the queries prefer that category, so a later
 * crawl improves the types of earlier referrals without a rebuild.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const recorded = await threads.record(db, events);
  const categorised = new Map<string, PageCategory>();
  for (const page of factsOf(events, 'PageFetched')) {
    const category = page.data.salesCategory;
    if (!category) continue;
    for (const url of [page.data.url, page.data.finalUrl]) categorised.set(url.slice(0, MAX_URL_CHARS), category);
  }
  if (categorised.size > 0) {
    await db.query(
      `INSERT INTO analytics_page_categories (url, category) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (url) DO UPDATE SET category = excluded.category`,
      [[...categorised.keys()], [...categorised.values()]],
    );
  }

  const referred = factsOf(events, 'RunCompleted').filter((run) => run.data.referredUrl);
  if (referred.length === 0) return;
  const known = await threads.lookup(
    db,
    referred.map((run) => run.data.threadId),
    recorded,
  );
  const daily = counterBatch({
    table: 'analytics_referrals_daily',
    keys: { owner_id: 'text', day: 'date', assistant_id: 'text', url: 'text', guessed_type: 'text' },
    counters: { referrals: 'int' },
  });
  for (const run of referred) {
    const thread = known.get(run.data.threadId);
    if (!thread) continue;
    const url = run.data.referredUrl!.slice(0, MAX_URL_CHARS);
    daily.add(
      {
        owner_id: thread.ownerId,
        day: run.day,
        assistant_id: thread.assistantId,
        url,
        guessed_type: classifyReferral(url),
      },
      { referrals: 1 },
    );
  }
  await daily.write(db);
}

/** Referred URLs (sales mode's redirect markers) per owner, assistant and day, with their page types. */
export const referredUrlsProjection: Projection = {
  name: 'analytics-referrals',
  version: 1,
  eventTypes: ['ThreadStarted', 'RunCompleted', 'PageFetched'],
  tables: [threads.table, 'analytics_referrals_daily', 'analytics_page_categories'],
  migrations: [
    {
      id: '001-tables',
      sql: `
${threads.migration}
CREATE TABLE IF NOT EXISTS analytics_referrals_daily (
  owner_id text NOT NULL,
  day date NOT NULL,
  assistant_id text NOT NULL,
  url text NOT NULL,
  guessed_type text NOT NULL,
  referrals int NOT NULL,
  PRIMARY KEY (owner_id, day, assistant_id, url, guessed_type)
);
CREATE TABLE IF NOT EXISTS analytics_page_categories (
  url text PRIMARY KEY,
  category text NOT NULL
);
`,
    },
  ],
  apply: applyBatch,
};
