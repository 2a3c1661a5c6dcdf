import type { CrawlInterval, PageCategory } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';

/** A moment from the database (Date from pg and PGlite, text elsewhere) as ISO 8601, or null. */
const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

export type CrawlProgressStatus = 'starting' | 'crawling' | 'completed' | 'error';
export type TrainingStatus = 'trained' | 'failed' | 'outdated' | 'pending';

export interface CrawlerConfigRecord {
  configId: string;
  assistantId: string;
  /** The assistant's numeric id (spec URLs). */
  assistantNumericId: number;
  ownerId: string;
  websiteUrl: string;
  crawlInterval: CrawlInterval;
  maxPages: number;
  maxDepth: number;
  deleteOrphanedPages: boolean;
  lastCrawled: string | null;
  filesCount: number;
  nextCrawlAt: string | null;
  /** Why the schedule is paused (the plan lost scheduled recrawl); null while it runs or there is none. */
  schedulePausedReason: string | null;
  lastCrawlId: string | null;
  lastCrawlStatus: CrawlProgressStatus | null;
  createdAt: string;
  updatedAt: string;
}

interface ConfigRow {
  config_id: string;
  assistant_id: string;
  numeric_id: number;
  owner_id: string;
  website_url: string;
  crawl_interval: CrawlInterval;
  max_pages: number;
  max_depth: number;
  delete_orphaned_pages: boolean;
  last_crawled: Date | string | null;
  files_count: string | number;
  next_crawl_at: Date | string | null;
  schedule_paused_reason: string | null;
  last_crawl_id: string | null;
  last_crawl_status: CrawlProgressStatus | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const CONFIG_SELECT = `
  SELECT c.config_id, c.assistant_id, a.numeric_id, c.owner_id, c.website_url, c.crawl_interval, c.max_pages, c.max_depth,
    c.delete_orphaned_pages, c.last_crawled, c.next_crawl_at, c.schedule_paused_reason, c.last_crawl_id, c.created_at, c.updated_at,
    (SELECT count(*) FROM crawled_urls u WHERE u.assistant_id = c.assistant_id AND u.file_id IS NOT NULL) AS files_count,
    (SELECT status FROM crawls k WHERE k.crawl_id = c.last_crawl_id) AS last_crawl_status
  FROM crawler_configs c JOIN assistants a ON a.id = c.assistant_id`;

const toConfig = (row: ConfigRow): CrawlerConfigRecord => ({
  configId: row.config_id,
  assistantId: row.assistant_id,
  assistantNumericId: row.numeric_id,
  ownerId: row.owner_id,
  websiteUrl: row.website_url,
  crawlInterval: row.crawl_interval,
  maxPages: row.max_pages,
  maxDepth: row.max_depth,
  deleteOrphanedPages: row.delete_orphaned_pages,
  lastCrawled: iso(row.last_crawled),
  filesCount: Number(row.files_count),
  nextCrawlAt: iso(row.next_crawl_at),
  schedulePausedReason: row.schedule_paused_reason,
  lastCrawlId: row.last_crawl_id,
  lastCrawlStatus: row.last_crawl_status,
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
});

export interface CrawlRecord {
  crawlId: string;
  assistantId: string | null;
  ownerId: string;
  configId: string | null;
  mode: 'preview' | 'crawl' | 'recrawl';
  startUrl: string;
  maxPages: number;
  maxDepth: number;
  status: CrawlProgressStatus;
  /** How the finding of pages ended (completed, stopped, failed), known before a crawl's pages are added. */
  outcomeStatus: string | null;
  reason: string | null;
  message: string | null;
  pagesDiscovered: number;
  pagesFetched: number;
  pagesFailed: number;
  pagesSkipped: number;
  pagesLinked: number;
  /** What adding the pages did, once it is recorded (null before, and for previews). */
  completion: CrawlCompletion | null;
  totalBytes: number;
  currentUrl: string | null;
  requestedAt: string;
  finishedAt: string | null;
  assistantName: string | null;
}

interface CrawlRow {
  crawl_id: string;
  assistant_id: string | null;
  owner_id: string;
  config_id: string | null;
  mode: CrawlRecord['mode'];
  start_url: string;
  max_pages: number;
  max_depth: number;
  status: CrawlProgressStatus;
  outcome_status: string | null;
  reason: string | null;
  message: string | null;
  pages_discovered: number;
  pages_fetched: number;
  pages_failed: number;
  pages_skipped: number;
  pages_linked: number;
  completion: CrawlCompletion | string | null;
  total_bytes: string | number;
  current_url: string | null;
  requested_at: Date | string;
  finished_at: Date | string | null;
  assistant_name: string | null;
}

export interface CrawlCompletion {
  added: number;
  unchanged: number;
  removed: number;
  not_added: number;
  not_added_reason: string | null;
}

const CRAWL_SELECT = `SELECT k.*, a.name AS assistant_name FROM crawls k LEFT JOIN assistants a ON a.id = k.assistant_id`;

const toCrawl = (row: CrawlRow): CrawlRecord => ({
  crawlId: row.crawl_id,
  assistantId: row.assistant_id,
  ownerId: row.owner_id,
  configId: row.config_id,
  mode: row.mode,
  startUrl: row.start_url,
  maxPages: row.max_pages,
  maxDepth: row.max_depth,
  status: row.status,
  outcomeStatus: row.outcome_status,
  reason: row.reason,
  message: row.message,
  pagesDiscovered: row.pages_discovered,
  pagesFetched: row.pages_fetched,
  pagesFailed: row.pages_failed,
  pagesSkipped: row.pages_skipped,
  pagesLinked: row.pages_linked,
  // jsonb arrives parsed from pg and as text from some drivers.
  completion: typeof row.completion === 'string' ? (JSON.parse(row.completion) as CrawlCompletion) : row.completion,
  totalBytes: Number(row.total_bytes),
  currentUrl: row.current_url,
  requestedAt: iso(row.requested_at)!,
  finishedAt: iso(row.finished_at),
  assistantName: row.assistant_name,
});

export interface CrawlPageRecord {
  key: string;
  url: string;
  finalUrl: string;
  depth: number;
  source: string;
  title: string | null;
  kind: 'html' | 'pdf' | 'docx' | 'txt';
  language: string | null;
  characters: number;
  bytes: number;
  truncated: boolean;
  note: string | null;
  contentSha256: string | null;
  htmlSha256: string | null;
  etag: string | null;
  lastModified: string | null;
  notModified: boolean;
  isSalesPage: boolean;
  salesCategory: PageCategory | null;
  detectionReason: string | null;
  relevanceScore: number | null;
  relevanceExplanation: string | null;
  filename: string;
}

interface PageRow {
  key: string;
  url: string;
  final_url: string | null;
  depth: number;
  source: string;
  title: string | null;
  kind: CrawlPageRecord['kind'];
  language: string | null;
  characters: number | null;
  bytes: number | null;
  truncated: boolean | null;
  note: string | null;
  content_sha256: string | null;
  html_sha256: string | null;
  etag: string | null;
  last_modified: string | null;
  not_modified: boolean | null;
  is_sales_page: boolean;
  sales_category: PageCategory | null;
  detection_reason: string | null;
  relevance_score: number | null;
  relevance_explanation: string | null;
  filename: string;
}

const toPage = (row: PageRow): CrawlPageRecord => ({
  key: row.key,
  url: row.url,
  finalUrl: row.final_url ?? row.url,
  depth: row.depth,
  source: row.source,
  title: row.title,
  kind: row.kind,
  language: row.language,
  characters: row.characters ?? 0,
  bytes: row.bytes ?? 0,
  truncated: row.truncated ?? false,
  note: row.note,
  contentSha256: row.content_sha256,
  htmlSha256: row.html_sha256,
  etag: row.etag,
  lastModified: row.last_modified,
  notModified: row.not_modified ?? false,
  isSalesPage: row.is_sales_page,
  salesCategory: row.sales_category,
  detectionReason: row.detection_reason,
  relevanceScore: row.relevance_score === null ? null : Number(row.relevance_score),
  relevanceExplanation: row.relevance_explanation,
  filename: row.filename,
});

export interface CrawledUrlRecord {
  id: string;
  assistantId: string;
  key: string;
  sourceUrl: string;
  pageTitle: string | null;
  kind: CrawlPageRecord['kind'];
  filename: string;
  characterCount: number;
  fileSize: number;
  contentSha256: string;
  fileId: string | null;
  isEnabled: boolean;
  trainingStatus: TrainingStatus;
  lastCrawledAt: string | null;
  isSalesPage: boolean;
  salesCategory: PageCategory | null;
  relevanceScore: number | null;
  crawlId: string;
}

interface UrlRow {
  id: string;
  assistant_id: string;
  key: string;
  source_url: string;
  page_title: string | null;
  kind: CrawlPageRecord['kind'];
  filename: string;
  character_count: number;
  file_size: string | number;
  content_sha256: string;
  file_id: string | null;
  is_enabled: boolean;
  training_status: TrainingStatus;
  last_crawled_at: Date | string | null;
  is_sales_page: boolean;
  sales_category: PageCategory | null;
  relevance_score: number | null;
  crawl_id: string;
}

const toUrl = (row: UrlRow): CrawledUrlRecord => ({
  id: row.id,
  assistantId: row.assistant_id,
  key: row.key,
  sourceUrl: row.source_url,
  pageTitle: row.page_title,
  kind: row.kind,
  filename: row.filename,
  characterCount: row.character_count,
  fileSize: Number(row.file_size),
  contentSha256: row.content_sha256,
  fileId: row.file_id,
  isEnabled: row.is_enabled,
  trainingStatus: row.training_status,
  lastCrawledAt: iso(row.last_crawled_at),
  isSalesPage: row.is_sales_page,
  salesCategory: row.sales_category,
  relevanceScore: row.relevance_score === null ? null : Number(row.relevance_score),
  crawlId: row.crawl_id,
});

const URL_COLUMNS = `id, assistant_id, key, source_url, page_title, kind, filename, character_count, file_size, content_sha256, file_id, is_enabled,
  training_status, last_crawled_at, is_sales_page, sales_category, relevance_score, crawl_id`;

/** A sales page the assistant may send a buyer to (Sales Mode). */
export interface SalesPageRecord {
  url: string;
  title: string | null;
  category: PageCategory | null;
  relevanceScore: number | null;
}

/** LIKE pattern for a search box: the text as typed, its wildcards escaped. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The crawler read model's queries. Everything behind a route is scoped by owner (another owner's
 * configuration, crawl or page is simply not found); `system` reads serve the workers.
 */
export function crawlerQueries(db: Queryable) {
  return {
    async configOfAssistant(ownerId: string, assistantId: string): Promise<CrawlerConfigRecord | undefined> {
      const { rows } = await db.query<ConfigRow>(`${CONFIG_SELECT} WHERE c.owner_id = $1 AND c.assistant_id = $2`, [
        ownerId,
        assistantId,
      ]);
      return rows[0] && toConfig(rows[0]);
    },
    async config(ownerId: string, configId: string): Promise<CrawlerConfigRecord | undefined> {
      const { rows } = await db.query<ConfigRow>(`${CONFIG_SELECT} WHERE c.owner_id = $1 AND c.config_id = $2`, [
        ownerId,
        configId,
      ]);
      return rows[0] && toConfig(rows[0]);
    },
    async configsOfOwner(ownerId: string): Promise<CrawlerConfigRecord[]> {
      const { rows } = await db.query<ConfigRow>(`${CONFIG_SELECT} WHERE c.owner_id = $1 ORDER BY a.numeric_id`, [
        ownerId,
      ]);
      return rows.map(toConfig);
    },

    async crawl(ownerId: string, crawlId: string): Promise<CrawlRecord | undefined> {
      const { rows } = await db.query<CrawlRow>(`${CRAWL_SELECT} WHERE k.owner_id = $1 AND k.crawl_id = $2`, [
        ownerId,
        crawlId,
      ]);
      return rows[0] && toCrawl(rows[0]);
    },
    /** The owner's latest preview of a site (by its start address's host), for Add Missing Page. */
    async latestPreviewOfSite(ownerId: string, host: string): Promise<CrawlRecord | undefined> {
      const { rows } = await db.query<CrawlRow>(
        `${CRAWL_SELECT} WHERE k.owner_id = $1 AND k.mode = 'preview' AND k.status IN ('completed', 'error')
           AND (k.start_url LIKE $2 OR k.start_url LIKE $3) ORDER BY k.requested_at DESC LIMIT 1`,
        [ownerId, `http://${host}%`, `https://${host}%`],
      );
      return rows[0] && toCrawl(rows[0]);
    },
    /**
     * The owner's finished previews another preview makes obsolete: those of the same assistant (or, without
     * one, of the same site), and any finished before `staleBefore` (abandoned). Their stored pages can go.
     */
    async supersededPreviews(
      ownerId: string,
      input: { exceptCrawlId: string; assistantId: string | null; host: string; staleBefore: Date },
    ): Promise<string[]> {
      const { rows } = await db.query<{ crawl_id: string }>(
        `SELECT crawl_id FROM crawls WHERE owner_id = $1 AND mode = 'preview' AND status IN ('completed', 'error') AND crawl_id <> $2
           AND (($3::text IS NOT NULL AND assistant_id = $3) OR ($3::text IS NULL AND assistant_id IS NULL AND (start_url LIKE $4 OR start_url LIKE $5)) OR finished_at < $6)
         ORDER BY requested_at DESC LIMIT 200`,
        [
          ownerId,
          input.exceptCrawlId,
          input.assistantId,
          `http://${input.host}%`,
          `https://${input.host}%`,
          input.staleBefore.toISOString(),
        ],
      );
      return rows.map((row) => row.crawl_id);
    },
    /** The configuration's latest finished crawl with pages (a preview of its site, or a crawl of it). */
    async latestFinishedCrawlOfAssistant(ownerId: string, assistantId: string): Promise<CrawlRecord | undefined> {
      const { rows } = await db.query<CrawlRow>(
        `${CRAWL_SELECT} WHERE k.owner_id = $1 AND k.assistant_id = $2 AND k.status = 'completed' AND k.pages_fetched > 0 ORDER BY k.requested_at DESC LIMIT 1`,
        [ownerId, assistantId],
      );
      return rows[0] && toCrawl(rows[0]);
    },

    /**
     * What the owner's crawls and previews added to the event log, in bytes: counted against the owner's
     * storage beside the knowledge files (the pages a crawl adds are counted as those files).
     */
    async storedBytes(ownerId: string): Promise<number> {
      const { rows } = await db.query<{ stored: string | number | null }>(
        `SELECT coalesce(sum(stored_bytes), 0) AS stored FROM crawls WHERE owner_id = $1`,
        [ownerId],
      );
      return Number(rows[0]?.stored ?? 0);
    },

    /** The pages a crawl kept, most relevant first (the preview's files). */
    async keptPages(crawlId: string): Promise<CrawlPageRecord[]> {
      const { rows } = await db.query<PageRow>(
        `SELECT * FROM crawl_pages WHERE crawl_id = $1 AND state = 'fetched' ORDER BY relevance_score DESC NULLS LAST, depth, seq`,
        [crawlId],
      );
      return rows.map(toPage);
    },
    async keptPagesNamed(crawlId: string, filenames: readonly string[]): Promise<CrawlPageRecord[]> {
      const { rows } = await db.query<PageRow>(
        `SELECT * FROM crawl_pages WHERE crawl_id = $1 AND state = 'fetched' AND filename = ANY($2::text[]) ORDER BY seq`,
        [crawlId, filenames],
      );
      return rows.map(toPage);
    },
    async keptPage(crawlId: string, key: string): Promise<CrawlPageRecord | undefined> {
      const { rows } = await db.query<PageRow>(
        `SELECT * FROM crawl_pages WHERE crawl_id = $1 AND key = $2 AND state = 'fetched'`,
        [crawlId, key],
      );
      return rows[0] && toPage(rows[0]);
    },

    async urls(
      ownerId: string,
      assistantId: string,
      query: { search?: string; isEnabled?: boolean; skip: number; limit: number },
    ): Promise<{ urls: CrawledUrlRecord[]; total: number }> {
      const where = [`owner_id = $1`, `assistant_id = $2`];
      const params: unknown[] = [ownerId, assistantId];
      if (query.search) {
        params.push(contains(query.search));
        where.push(
          `(source_url ILIKE $${params.length} OR coalesce(page_title, '') ILIKE $${params.length} OR filename ILIKE $${params.length})`,
        );
      }
      if (query.isEnabled !== undefined) {
        params.push(query.isEnabled);
        where.push(`is_enabled = $${params.length}`);
      }
      const condition = where.join(' AND ');
      const { rows: counted } = await db.query<{ total: string | number }>(
        `SELECT count(*) AS total FROM crawled_urls WHERE ${condition}`,
        params,
      );
      const { rows } = await db.query<UrlRow>(
        `SELECT ${URL_COLUMNS} FROM crawled_urls WHERE ${condition} ORDER BY committed_at DESC, source_url LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.skip],
      );
      return { urls: rows.map(toUrl), total: Number(counted[0]?.total ?? 0) };
    },
    async url(ownerId: string, id: string): Promise<CrawledUrlRecord | undefined> {
      const { rows } = await db.query<UrlRow>(
        `SELECT ${URL_COLUMNS} FROM crawled_urls WHERE owner_id = $1 AND id = $2`,
        [ownerId, id],
      );
      return rows[0] && toUrl(rows[0]);
    },
    async urlsOfAssistant(ownerId: string, assistantId: string): Promise<CrawledUrlRecord[]> {
      const { rows } = await db.query<UrlRow>(
        `SELECT ${URL_COLUMNS} FROM crawled_urls WHERE owner_id = $1 AND assistant_id = $2 ORDER BY committed_at, id`,
        [ownerId, assistantId],
      );
      return rows.map(toUrl);
    },
    async stats(ownerId: string, assistantId: string) {
      const { rows } = await db.query<{
        total: string | number;
        disabled: string | number;
        characters: string | number | null;
        size: string | number | null;
        last: Date | string | null;
      }>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE NOT is_enabled) AS disabled, coalesce(sum(character_count), 0) AS characters,
           coalesce(sum(file_size), 0) AS size, max(last_crawled_at) AS last
         FROM crawled_urls WHERE owner_id = $1 AND assistant_id = $2`,
        [ownerId, assistantId],
      );
      const row = rows[0];
      return {
        totalUrls: Number(row?.total ?? 0),
        disabledUrls: Number(row?.disabled ?? 0),
        totalCharacters: Number(row?.characters ?? 0),
        totalSizeBytes: Number(row?.size ?? 0),
        lastCrawlTime: iso(row?.last),
      };
    },

    system: {
      /** Sales Mode: the assistant's crawled sales pages that are in its knowledge (enabled). */
      async salesPages(assistantId: string): Promise<SalesPageRecord[]> {
        const { rows } = await db.query<{
          source_url: string;
          page_title: string | null;
          sales_category: PageCategory | null;
          relevance_score: number | null;
        }>(
          `SELECT source_url, page_title, sales_category, relevance_score FROM crawled_urls
           WHERE assistant_id = $1 AND is_enabled AND is_sales_page ORDER BY relevance_score DESC NULLS LAST, source_url LIMIT 50`,
          [assistantId],
        );
        return rows.map((row) => ({
          url: row.source_url,
          title: row.page_title,
          category: row.sales_category,
          relevanceScore: row.relevance_score === null ? null : Number(row.relevance_score),
        }));
      },
      /** What a recrawl needs to know of the pages an assistant holds: their sitemap date and when they were last fetched. */
      async revalidationHints(
        assistantId: string,
      ): Promise<Map<string, { sitemapLastmod: string | null; lastCrawledAt: string | null }>> {
        const { rows } = await db.query<{
          key: string;
          sitemap_lastmod: string | null;
          last_crawled_at: Date | string | null;
        }>(`SELECT key, sitemap_lastmod, last_crawled_at FROM crawled_urls WHERE assistant_id = $1`, [assistantId]);
        return new Map(
          rows.map((row) => [
            row.key,
            { sitemapLastmod: row.sitemap_lastmod, lastCrawledAt: iso(row.last_crawled_at) },
          ]),
        );
      },
      /** Configurations whose next crawl is due (the scheduler), oldest first. */
      async dueConfigs(
        now: Date,
        limit = 20,
      ): Promise<Array<{ configId: string; assistantId: string; ownerId: string; nextCrawlAt: string }>> {
        const { rows } = await db.query<{
          config_id: string;
          assistant_id: string;
          owner_id: string;
          next_crawl_at: Date | string;
        }>(
          `SELECT config_id, assistant_id, owner_id, next_crawl_at FROM crawler_configs WHERE next_crawl_at IS NOT NULL AND next_crawl_at <= $1 ORDER BY next_crawl_at LIMIT $2`,
          [now.toISOString(), limit],
        );
        return rows.map((row) => ({
          configId: row.config_id,
          assistantId: row.assistant_id,
          ownerId: row.owner_id,
          nextCrawlAt: iso(row.next_crawl_at)!,
        }));
      },
      async crawl(crawlId: string): Promise<CrawlRecord | undefined> {
        const { rows } = await db.query<CrawlRow>(`${CRAWL_SELECT} WHERE k.crawl_id = $1`, [crawlId]);
        return rows[0] && toCrawl(rows[0]);
      },
    },
  };
}

export type CrawlerQueries = ReturnType<typeof crawlerQueries>;
