import type {
  CrawledPageCommitted,
  CrawledPageToggled,
  CrawlerConfigured,
  CrawlerConfigUpdated,
  CrawlRequested,
  PageDiscovered,
  PageFailed,
  PageFetched,
  PageSkipped,
  RecordedEvent,
} from '@kesher/contracts';
import { crawledPageFileName, crawlIntervalMs, type CrawlInterval } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineBatchProjection, isEventOf } from '../shared/typed-projection.js';

/**
 * The crawler's read model (spec §3): each assistant's crawler configuration (with its schedule), every
 * crawl's progress and pages (the preview and the progress panel read them), and the crawled URL records
 * of Crawler Settings with their training status — trained, failed, outdated or pending — kept true from
 * the knowledge files' own events.
 *
 * A crawl's counters move once per batch (one UPDATE per crawl), not once per page: a crawl of 2,000
 * pages records some 6,000 events. Each crawl also counts the bytes its events hold in the log
 * (`stored_bytes`): what the crawl stored, counted against its owner's storage beside the files.
 */
type Event<T extends string, D> = RecordedEvent<T, D>;

interface CrawlCounters {
  discovered: number;
  fetched: number;
  failed: number;
  skipped: number;
  bytes: number;
  currentUrl: string | null;
  status: 'crawling' | null;
  /** Bytes of the crawl's events (data and metadata, as JSON). */
  stored: number;
}

const emptyCounters = (): CrawlCounters => ({
  discovered: 0,
  fetched: 0,
  failed: 0,
  skipped: 0,
  bytes: 0,
  currentUrl: null,
  status: null,
  stored: 0,
});

/** The events of a crawl's stream (`crawl-<crawlId>`): every one of them carries `crawlId`. */
const crawlStreamEvents = [
  'CrawlRequested',
  'CrawlRobotsRead',
  'PageDiscovered',
  'PagesDiscovered',
  'PageFetched',
  'PageFailed',
  'PageSkipped',
  'PageScored',
  'CrawlCompleted',
  'CrawlFailed',
  'CrawlPagesLinked',
] as const;
const crawlStreamEventSet = new Set<string>(crawlStreamEvents);

/** What an event adds to the log, near enough: its data and metadata as JSON. */
const recordedBytes = (event: RecordedEvent) =>
  Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));

/** The next scheduled crawl of an interval, from a moment (ISO), as SQL can take it; null for `none`. */
const nextCrawlAt = (interval: CrawlInterval, from: string): string | null => {
  const ms = crawlIntervalMs[interval];
  return ms === null ? null : new Date(Date.parse(from) + ms).toISOString();
};

const statusOfFile = (status: string | undefined) =>
  status === 'ready' ? 'trained' : status === 'failed' ? 'failed' : 'pending';

async function crawlOf(db: Queryable, crawlId: string) {
  const { rows } = await db.query<{ assistant_id: string | null; mode: string; config_id: string | null }>(
    `SELECT assistant_id, mode, config_id FROM crawls WHERE crawl_id = $1`,
    [crawlId],
  );
  return rows[0];
}

async function requested(db: Queryable, event: Event<'CrawlRequested', CrawlRequested>) {
  const d = event.data;
  await db.query(
    `INSERT INTO crawls (crawl_id, assistant_id, owner_id, config_id, mode, start_url, max_pages, max_depth, status, requested_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'starting', $9) ON CONFLICT (crawl_id) DO NOTHING`,
    [
      d.crawlId,
      d.assistantId,
      d.ownerId,
      d.configId,
      d.mode,
      d.startUrl,
      d.maxPages,
      d.maxDepth,
      event.metadata.timestamp,
    ],
  );
  // A crawl of the configuration is under way: it is not scheduled again until it ends.
  if (d.configId)
    await db.query(`UPDATE crawler_configs SET last_crawl_id = $2, next_crawl_at = NULL WHERE config_id = $1`, [
      d.configId,
      d.crawlId,
    ]);
}

async function discovered(
  db: Queryable,
  crawlId: string,
  pages: ReadonlyArray<Omit<PageDiscovered, 'crawlId' | 'fromUrl'>>,
  counters: CrawlCounters,
) {
  const { rows } = await db.query(
    `INSERT INTO crawl_pages (crawl_id, key, url, depth, source, state, lastmod)
     SELECT $1, p.key, p.url, p.depth, p.source, 'discovered', p.lastmod
     FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[]) AS p(key, url, depth, source, lastmod)
     ON CONFLICT (crawl_id, key) DO NOTHING RETURNING 1`,
    [
      crawlId,
      pages.map((p) => p.key),
      pages.map((p) => p.url),
      pages.map((p) => p.depth),
      pages.map((p) => p.source),
      pages.map((p) => p.lastmod ?? null),
    ],
  );
  counters.discovered += rows.length;
  counters.status = 'crawling';
}

async function fetched(db: Queryable, event: Event<'PageFetched', PageFetched>, counters: CrawlCounters) {
  const d = event.data;
  const { rows } = await db.query(
    `INSERT INTO crawl_pages (crawl_id, key, url, final_url, depth, source, state, title, kind, language, characters, bytes, truncated, note,
       content_sha256, html_sha256, etag, last_modified, not_modified, is_sales_page, sales_category, detection_reason, filename, seq)
     VALUES ($1, $2, $3, $4, $5, 'link', 'fetched', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, nextval('crawl_pages_seq'))
     ON CONFLICT (crawl_id, key) DO UPDATE SET
       final_url = excluded.final_url, state = 'fetched', title = excluded.title, kind = excluded.kind, language = excluded.language,
       characters = excluded.characters, bytes = excluded.bytes, truncated = excluded.truncated, note = excluded.note,
       content_sha256 = excluded.content_sha256, html_sha256 = excluded.html_sha256, etag = excluded.etag, last_modified = excluded.last_modified,
       not_modified = excluded.not_modified, is_sales_page = excluded.is_sales_page, sales_category = excluded.sales_category,
       detection_reason = excluded.detection_reason, filename = excluded.filename, seq = excluded.seq
     WHERE crawl_pages.state = 'discovered'
     RETURNING 1`,
    [
      d.crawlId,
      d.key,
      d.url,
      d.finalUrl,
      d.depth,
      d.title,
      d.kind,
      d.language,
      d.characters,
      d.bytes,
      d.truncated,
      d.note,
      d.contentSha256,
      d.htmlSha256,
      d.etag,
      d.lastModified,
      d.notModified,
      d.isSalesPage,
      d.salesCategory,
      d.detectionReason,
      crawledPageFileName(d.key, d.kind),
    ],
  );
  if (rows.length === 0) return;
  counters.fetched++;
  counters.bytes += d.bytes;
  counters.currentUrl = d.url;
  counters.status = 'crawling';

  // A crawl of an assistant's site (not a preview) tells each page it holds when it was last seen, and
  // whether its content moved on from what the knowledge holds (outdated until its file is replaced).
  const crawl = await crawlOf(db, d.crawlId);
  if (!crawl?.assistant_id || crawl.mode === 'preview') return;
  await db.query(
    `UPDATE crawled_urls SET last_crawled_at = $3,
       training_status = CASE WHEN $4::boolean OR content_sha256 = $5 THEN training_status ELSE 'outdated' END,
       sitemap_lastmod = (SELECT lastmod FROM crawl_pages WHERE crawl_id = $6 AND key = $2)
     WHERE assistant_id = $1 AND key = $2 AND is_enabled`,
    [crawl.assistant_id, d.key, event.metadata.timestamp, d.notModified, d.contentSha256, d.crawlId],
  );
}

async function settled(
  db: Queryable,
  d: PageFailed | PageSkipped,
  state: 'failed' | 'skipped',
  counters: CrawlCounters,
) {
  const message = 'message' in d ? d.message : d.detail;
  const { rows } = await db.query(
    `INSERT INTO crawl_pages (crawl_id, key, url, depth, source, state, reason, message) VALUES ($1, $2, $3, $4, 'link', $5, $6, $7)
     ON CONFLICT (crawl_id, key) DO UPDATE SET state = excluded.state, reason = excluded.reason, message = excluded.message
     WHERE crawl_pages.state = 'discovered'
     RETURNING 1`,
    [d.crawlId, d.key, d.url, d.depth, state, d.reason, message],
  );
  if (rows.length === 0) return;
  counters[state]++;
  counters.currentUrl = d.url;
  counters.status = 'crawling';
}

async function flushCounters(db: Queryable, byCrawl: Map<string, CrawlCounters>) {
  for (const [crawlId, c] of byCrawl) {
    await db.query(
      `UPDATE crawls SET pages_discovered = pages_discovered + $2, pages_fetched = pages_fetched + $3, pages_failed = pages_failed + $4,
         pages_skipped = pages_skipped + $5, total_bytes = total_bytes + $6, current_url = coalesce($7, current_url),
         status = CASE WHEN $8::text IS NOT NULL AND status = 'starting' THEN $8 ELSE status END, stored_bytes = stored_bytes + $9
       WHERE crawl_id = $1`,
      [crawlId, c.discovered, c.fetched, c.failed, c.skipped, c.bytes, c.currentUrl, c.status, c.stored],
    );
  }
  byCrawl.clear();
}

async function finished(
  db: Queryable,
  crawlId: string,
  at: string,
  outcome: { status: 'completed' | 'error'; reason: string; message: string; outcomeStatus: string; final: boolean },
) {
  await db.query(
    `UPDATE crawls SET status = CASE WHEN $6 THEN $2 ELSE status END, outcome_status = $3, reason = $4, message = $5,
       finished_at = CASE WHEN $6 THEN $7::timestamptz ELSE finished_at END
     WHERE crawl_id = $1`,
    [crawlId, outcome.status, outcome.outcomeStatus, outcome.reason, outcome.message, outcome.final, at],
  );
  if (!outcome.final) return;
  const crawl = await crawlOf(db, crawlId);
  if (!crawl?.config_id) return;
  const { rows } = await db.query<{ crawl_interval: CrawlInterval }>(
    `SELECT crawl_interval FROM crawler_configs WHERE config_id = $1`,
    [crawl.config_id],
  );
  const config = rows[0];
  if (!config) return;
  await db.query(
    `UPDATE crawler_configs SET last_crawled = CASE WHEN $3 THEN $2::timestamptz ELSE last_crawled END,
       next_crawl_at = CASE WHEN schedule_paused_reason IS NULL THEN $4::timestamptz END WHERE config_id = $1`,
    [crawl.config_id, at, outcome.status === 'completed', nextCrawlAt(config.crawl_interval, at)],
  );
}

async function configured(db: Queryable, event: Event<'CrawlerConfigured', CrawlerConfigured>) {
  const d = event.data;
  const at = event.metadata.timestamp;
  await db.query(
    `INSERT INTO crawler_configs (config_id, assistant_id, owner_id, website_url, crawl_interval, max_pages, max_depth, delete_orphaned_pages, created_at, updated_at, next_crawl_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10)
     ON CONFLICT (assistant_id) DO UPDATE SET config_id = excluded.config_id, owner_id = excluded.owner_id, website_url = excluded.website_url,
       crawl_interval = excluded.crawl_interval, max_pages = excluded.max_pages, max_depth = excluded.max_depth,
       delete_orphaned_pages = excluded.delete_orphaned_pages, created_at = excluded.created_at, updated_at = excluded.updated_at,
       next_crawl_at = excluded.next_crawl_at, last_crawled = NULL, last_crawl_id = NULL, schedule_paused_reason = NULL`,
    [
      d.configId,
      d.assistantId,
      d.ownerId,
      d.websiteUrl,
      d.crawlInterval,
      d.maxPages,
      d.maxDepth,
      d.deleteOrphanedPages,
      at,
      nextCrawlAt(d.crawlInterval, at),
    ],
  );
}

async function configUpdated(db: Queryable, event: Event<'CrawlerConfigUpdated', CrawlerConfigUpdated>) {
  const { configId, changes } = event.data;
  const { rows } = await db.query<{
    crawl_interval: CrawlInterval;
    last_crawled: Date | string | null;
    created_at: Date | string;
    next_crawl_at: Date | string | null;
    last_crawl_id: string | null;
  }>(
    `SELECT crawl_interval, last_crawled, created_at, next_crawl_at, last_crawl_id FROM crawler_configs WHERE config_id = $1`,
    [configId],
  );
  const current = rows[0];
  if (!current) return;
  const interval = changes.crawlInterval ?? current.crawl_interval;
  const from = new Date(current.last_crawled ?? current.created_at).toISOString();
  // While a crawl runs there is no next one; a new interval counts from the last crawl (or the configuration).
  const running =
    current.next_crawl_at === null && current.last_crawl_id !== null && changes.crawlInterval === undefined;
  // A paused schedule stays paused until its interval is saved again (the decider records it then, even unchanged).
  await db.query(
    `UPDATE crawler_configs SET website_url = coalesce($2, website_url), crawl_interval = $3, max_pages = coalesce($4, max_pages),
       max_depth = coalesce($5, max_depth), delete_orphaned_pages = coalesce($6, delete_orphaned_pages), updated_at = $7,
       next_crawl_at = CASE WHEN $9 OR (schedule_paused_reason IS NOT NULL AND NOT $10) THEN next_crawl_at ELSE $8::timestamptz END,
       schedule_paused_reason = CASE WHEN $10 THEN NULL ELSE schedule_paused_reason END
     WHERE config_id = $1`,
    [
      configId,
      changes.websiteUrl ?? null,
      interval,
      changes.maxPages ?? null,
      changes.maxDepth ?? null,
      changes.deleteOrphanedPages ?? null,
      event.metadata.timestamp,
      nextCrawlAt(interval, from),
      running,
      changes.crawlInterval !== undefined,
    ],
  );
}

async function pageCommitted(db: Queryable, event: Event<'CrawledPageCommitted', CrawledPageCommitted>) {
  const d = event.data;
  const { rows } = await db.query<{ status: string }>(`SELECT status FROM crawler_files WHERE file_id = $1`, [
    d.fileId,
  ]);
  await db.query(
    `INSERT INTO crawled_urls (id, assistant_id, owner_id, key, source_url, page_title, kind, filename, character_count, file_size, content_sha256,
       file_id, is_enabled, training_status, last_crawled_at, is_sales_page, sales_category, relevance_score, crawl_id, committed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, $13, $14, $15, $16, $17, $18, $14)
     ON CONFLICT (id) DO UPDATE SET source_url = excluded.source_url, page_title = excluded.page_title, kind = excluded.kind, filename = excluded.filename,
       character_count = excluded.character_count, file_size = excluded.file_size, content_sha256 = excluded.content_sha256, file_id = excluded.file_id,
       is_enabled = true, training_status = excluded.training_status, last_crawled_at = excluded.last_crawled_at, is_sales_page = excluded.is_sales_page,
       sales_category = excluded.sales_category, relevance_score = excluded.relevance_score, crawl_id = excluded.crawl_id, committed_at = excluded.committed_at`,
    [
      d.pageId,
      d.assistantId,
      d.ownerId,
      d.key,
      d.url,
      d.title,
      d.kind,
      d.filename,
      d.characters,
      d.bytes,
      d.contentSha256,
      d.fileId,
      statusOfFile(rows[0]?.status),
      event.metadata.timestamp,
      d.isSalesPage,
      d.salesCategory,
      d.relevanceScore,
      d.crawlId,
    ],
  );
  await db.query(`UPDATE crawls SET pages_linked = pages_linked + 1 WHERE crawl_id = $1`, [d.crawlId]);
  // A page committed from a preview was crawled for the assistant's site as much as one a crawl added: its
  // configuration's "last crawled" is that moment too (a preview has no configuration of its own), so the
  // crawler dialog does not say "Not yet" next to pages Crawler Settings lists as crawled.
  await db.query(
    `UPDATE crawler_configs SET last_crawled = GREATEST(coalesce(last_crawled, $2::timestamptz), $2::timestamptz) WHERE assistant_id = $1`,
    [d.assistantId, event.metadata.timestamp],
  );
  // The sitemap's date for the page as this crawl saw it: a recrawl that finds the same date need not ask.
  await db.query(
    `UPDATE crawled_urls SET sitemap_lastmod = (SELECT lastmod FROM crawl_pages WHERE crawl_id = $2 AND key = $3) WHERE id = $1`,
    [d.pageId, d.crawlId, d.key],
  );
}

async function pageToggled(db: Queryable, d: CrawledPageToggled) {
  if (!d.enabled) {
    await db.query(`UPDATE crawled_urls SET is_enabled = false, file_id = NULL WHERE id = $1`, [d.pageId]);
    return;
  }
  const { rows } = await db.query<{ status: string }>(`SELECT status FROM crawler_files WHERE file_id = $1`, [
    d.fileId,
  ]);
  await db.query(`UPDATE crawled_urls SET is_enabled = true, file_id = $2, training_status = $3 WHERE id = $1`, [
    d.pageId,
    d.fileId,
    statusOfFile(rows[0]?.status),
  ]);
}

const tables = ['crawler_configs', 'crawls', 'crawl_pages', 'crawled_urls', 'crawler_files'] as const;

export const crawlerProjection = defineBatchProjection({
  name: 'crawler',
  // 2: every crawl counts what it stored (stored_bytes), from its first event: rebuilt to count the crawls before it.
  // 3: a committed page sets its configuration's last_crawled (a preview's commit left it null).
  version: 3,
  eventTypes: [
    'CrawlRequested',
    'CrawlRobotsRead',
    'PageDiscovered',
    'PagesDiscovered',
    'PageFetched',
    'PageFailed',
    'PageSkipped',
    'PageScored',
    'CrawlCompleted',
    'CrawlFailed',
    'CrawlPagesLinked',
    'CrawlerConfigured',
    'CrawlerConfigUpdated',
    'CrawlerConfigDeleted',
    'CrawlerSchedulePaused',
    'CrawledPageCommitted',
    'CrawledPageToggled',
    'CrawledPagesDeleted',
    'KnowledgeFileUploaded',
    'KnowledgeFileIngested',
    'KnowledgeFileIngestionFailed',
    'KnowledgeFileDeleted',
    'AssistantDeleted',
  ],
  tables,
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS crawler_configs (
  config_id text PRIMARY KEY,
  assistant_id text NOT NULL UNIQUE,
  owner_id text NOT NULL,
  website_url text NOT NULL,
  crawl_interval text NOT NULL,
  max_pages int NOT NULL,
  max_depth int NOT NULL,
  delete_orphaned_pages boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_crawled timestamptz,
  last_crawl_id text,
  next_crawl_at timestamptz
);
CREATE INDEX IF NOT EXISTS crawler_configs_owner ON crawler_configs (owner_id);
CREATE INDEX IF NOT EXISTS crawler_configs_due ON crawler_configs (next_crawl_at) WHERE next_crawl_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS crawls (
  crawl_id text PRIMARY KEY,
  assistant_id text,
  owner_id text NOT NULL,
  config_id text,
  mode text NOT NULL,
  start_url text NOT NULL,
  max_pages int NOT NULL,
  max_depth int NOT NULL,
  status text NOT NULL,
  outcome_status text,
  reason text,
  message text,
  pages_discovered int NOT NULL DEFAULT 0,
  pages_fetched int NOT NULL DEFAULT 0,
  pages_failed int NOT NULL DEFAULT 0,
  pages_skipped int NOT NULL DEFAULT 0,
  pages_linked int NOT NULL DEFAULT 0,
  total_bytes bigint NOT NULL DEFAULT 0,
  current_url text,
  requested_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX IF NOT EXISTS crawls_owner ON crawls (owner_id, requested_at);
CREATE INDEX IF NOT EXISTS crawls_assistant ON crawls (assistant_id, requested_at);
CREATE SEQUENCE IF NOT EXISTS crawl_pages_seq;
CREATE TABLE IF NOT EXISTS crawl_pages (
  crawl_id text NOT NULL,
  key text NOT NULL,
  url text NOT NULL,
  final_url text,
  depth int NOT NULL,
  source text NOT NULL,
  state text NOT NULL,
  title text,
  kind text,
  language text,
  characters int,
  bytes int,
  truncated boolean,
  note text,
  content_sha256 text,
  html_sha256 text,
  etag text,
  last_modified text,
  not_modified boolean,
  is_sales_page boolean NOT NULL DEFAULT false,
  sales_category text,
  detection_reason text,
  relevance_score real,
  relevance_explanation text,
  reason text,
  message text,
  filename text,
  seq bigint,
  PRIMARY KEY (crawl_id, key)
);
CREATE INDEX IF NOT EXISTS crawl_pages_filename ON crawl_pages (crawl_id, filename);
CREATE TABLE IF NOT EXISTS crawled_urls (
  id text PRIMARY KEY,
  assistant_id text NOT NULL,
  owner_id text NOT NULL,
  key text NOT NULL,
  source_url text NOT NULL,
  page_title text,
  kind text NOT NULL,
  filename text NOT NULL,
  character_count int NOT NULL,
  file_size bigint NOT NULL,
  content_sha256 text NOT NULL,
  file_id text,
  is_enabled boolean NOT NULL,
  training_status text NOT NULL,
  last_crawled_at timestamptz,
  is_sales_page boolean NOT NULL,
  sales_category text,
  relevance_score real,
  crawl_id text NOT NULL,
  committed_at timestamptz NOT NULL,
  UNIQUE (assistant_id, key)
);
CREATE INDEX IF NOT EXISTS crawled_urls_owner ON crawled_urls (owner_id, assistant_id, committed_at);
CREATE INDEX IF NOT EXISTS crawled_urls_file ON crawled_urls (file_id);
-- Knowledge files that came from an address, with their reading status: a page's training status even
-- when its file was read before the page's commit was recorded.
CREATE TABLE IF NOT EXISTS crawler_files (
  file_id text PRIMARY KEY,
  status text NOT NULL
);
`,
    },
    {
      // Sitemap dates: a scheduled recrawl does not ask for a page whose date has not moved (crawler/revalidation.ts).
      id: '002-sitemap-lastmod',
      sql: `
ALTER TABLE crawl_pages ADD COLUMN IF NOT EXISTS lastmod text;
ALTER TABLE crawled_urls ADD COLUMN IF NOT EXISTS sitemap_lastmod text;
`,
    },
    {
      // The completion's breakdown (added, unchanged, removed, not added), so clients can say it in their language.
      id: '003-crawl-completion',
      sql: `ALTER TABLE crawls ADD COLUMN IF NOT EXISTS completion jsonb;`,
    },
    {
      // What each crawl added to the event log: the owner's storage counts it (crawler.queries storedBytes).
      id: '004-crawl-stored-bytes',
      sql: `ALTER TABLE crawls ADD COLUMN IF NOT EXISTS stored_bytes bigint NOT NULL DEFAULT 0;`,
    },
    {
      // Why a configuration's schedule is paused (its plan lost scheduled recrawl); null while it runs.
      id: '005-schedule-paused',
      sql: `ALTER TABLE crawler_configs ADD COLUMN IF NOT EXISTS schedule_paused_reason text;`,
    },
  ],
  async applyBatch(db, events) {
    const counters = new Map<string, CrawlCounters>();
    const countersOf = (crawlId: string) => {
      let c = counters.get(crawlId);
      if (!c) counters.set(crawlId, (c = emptyCounters()));
      return c;
    };
    for (const event of events) {
      if (isEventOf<(typeof crawlStreamEvents)[number]>(event, crawlStreamEventSet))
        countersOf(event.data.crawlId).stored += recordedBytes(event);
      switch (event.type) {
        case 'CrawlRequested':
          await requested(db, event);
          break;
        case 'PageDiscovered': {
          const d = event.data;
          await discovered(db, d.crawlId, [d], countersOf(d.crawlId));
          break;
        }
        case 'PagesDiscovered': {
          const d = event.data;
          await discovered(db, d.crawlId, d.pages, countersOf(d.crawlId));
          break;
        }
        case 'PageFetched': {
          const e = event;
          await fetched(db, e, countersOf(e.data.crawlId));
          break;
        }
        case 'PageFailed': {
          const d = event.data;
          await settled(db, d, 'failed', countersOf(d.crawlId));
          break;
        }
        case 'PageSkipped': {
          const d = event.data;
          await settled(db, d, 'skipped', countersOf(d.crawlId));
          break;
        }
        case 'PageScored': {
          const d = event.data;
          await db.query(
            `UPDATE crawl_pages SET relevance_score = $3, relevance_explanation = $4 WHERE crawl_id = $1 AND key = $2`,
            [d.crawlId, d.key, d.relevanceScore, d.explanation],
          );
          break;
        }
        case 'CrawlCompleted': {
          const d = event.data;
          await flushCounters(db, counters);
          const crawl = await crawlOf(db, d.crawlId);
          // A crawl that adds its pages to the assistant is complete once they are added (CrawlPagesLinked).
          await finished(db, d.crawlId, event.metadata.timestamp, {
            status: 'completed',
            outcomeStatus: d.status,
            reason: d.reason,
            message: d.message,
            final: crawl?.mode === 'preview',
          });
          break;
        }
        case 'CrawlFailed': {
          const d = event.data;
          await flushCounters(db, counters);
          await finished(db, d.crawlId, event.metadata.timestamp, {
            status: 'error',
            outcomeStatus: 'failed',
            reason: d.reason,
            message: d.message,
            final: true,
          });
          break;
        }
        case 'CrawlPagesLinked': {
          const d = event.data;
          const { rows } = await db.query<{ reason: string | null; outcome_status: string | null }>(
            `SELECT reason, outcome_status FROM crawls WHERE crawl_id = $1`,
            [d.crawlId],
          );
          // Pages left as they were are linked to the assistant as much as the ones just added.
          await db.query(`UPDATE crawls SET pages_linked = $2, completion = $3 WHERE crawl_id = $1`, [
            d.crawlId,
            d.linked + d.unchanged,
            JSON.stringify({
              added: d.linked,
              unchanged: d.unchanged,
              removed: d.removed,
              not_added: d.notAdded,
              not_added_reason: d.notAddedReason ?? null,
            }),
          ]);
          await finished(db, d.crawlId, event.metadata.timestamp, {
            status: 'completed',
            outcomeStatus: rows[0]?.outcome_status ?? 'completed',
            reason: rows[0]?.reason ?? 'exhausted',
            message: d.message,
            final: true,
          });
          break;
        }
        case 'CrawlerConfigured':
          await configured(db, event);
          break;
        case 'CrawlerConfigUpdated':
          await configUpdated(db, event);
          break;
        case 'CrawlerSchedulePaused': {
          const d = event.data;
          await db.query(
            `UPDATE crawler_configs SET next_crawl_at = NULL, schedule_paused_reason = $2 WHERE config_id = $1`,
            [d.configId, d.reason],
          );
          break;
        }
        case 'CrawlerConfigDeleted':
          await db.query(`DELETE FROM crawler_configs WHERE config_id = $1`, [event.data.configId]);
          break;
        case 'CrawledPageCommitted':
          await pageCommitted(db, event);
          break;
        case 'CrawledPageToggled':
          await pageToggled(db, event.data);
          break;
        case 'CrawledPagesDeleted':
          await db.query(`DELETE FROM crawled_urls WHERE id = ANY($1::text[])`, [event.data.pageIds]);
          break;
        case 'KnowledgeFileUploaded': {
          const d = event.data;
          if (d.sourceUrl)
            await db.query(
              `INSERT INTO crawler_files (file_id, status) VALUES ($1, 'pending') ON CONFLICT (file_id) DO NOTHING`,
              [d.fileId],
            );
          break;
        }
        case 'KnowledgeFileIngested':
        case 'KnowledgeFileIngestionFailed': {
          const { fileId } = event.data;
          const ok = event.type === 'KnowledgeFileIngested';
          const { rows } = await db.query(
            `UPDATE crawler_files SET status = $2 WHERE file_id = $1 AND status = 'pending' RETURNING 1`,
            [fileId, ok ? 'ready' : 'failed'],
          );
          if (rows.length > 0)
            await db.query(`UPDATE crawled_urls SET training_status = $2 WHERE file_id = $1`, [
              fileId,
              ok ? 'trained' : 'failed',
            ]);
          break;
        }
        case 'KnowledgeFileDeleted':
          await db.query(`DELETE FROM crawler_files WHERE file_id = $1`, [event.data.fileId]);
          break;
        case 'AssistantDeleted': {
          const { assistantId } = event.data;
          await db.query(`DELETE FROM crawler_configs WHERE assistant_id = $1`, [assistantId]);
          await db.query(`DELETE FROM crawled_urls WHERE assistant_id = $1`, [assistantId]);
          break;
        }
      }
    }
    await flushCounters(db, counters);
  },
});
