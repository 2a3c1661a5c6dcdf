import { z } from 'zod';

/**
 * Crawl events (stream `crawl-<crawlId>`), the facts a crawler worker records as it goes (the crawler
 * worker, services/src/workers/crawler). Page content is never in an event — the extracted text and clean
 * HTML go to the blob store and the events carry their sha-256 (DESIGN §4).
 */
const Id = z.string().min(1);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Url = z.string().min(1).max(4096);

/** What kind of page it is, for Sales Mode; the first four are pages a buyer can be sent to. */
export const PageCategorySchema = z.enum([
  'pricing',
  'product',
  'checkout',
  'booking',
  'support',
  'documentation',
  'company',
  'content',
]);
export type PageCategory = z.infer<typeof PageCategorySchema>;

export const CrawlModeSchema = z.enum(['preview', 'crawl', 'recrawl']);
export const PageKindSchema = z.enum(['html', 'pdf', 'docx', 'txt']);
/** `resume`: a page a recrawl refreshes (seeded from what the assistant holds); `manual`: added by the owner (Add Missing Page). */
export const DiscoverySourceSchema = z.enum(['start', 'sitemap', 'link', 'resume', 'manual']);
/** `unchanged`: a recrawl did not ask for the page: its sitemap lastmod is the one it had when last fetched (within a week). */
export const PageSkipReasonSchema = z.enum([
  'robots',
  'trap',
  'noindex',
  'duplicate',
  'off-site-redirect',
  'unsupported-type',
  'empty',
  'size-limit',
  'unchanged',
]);
export const PageFailureReasonSchema = z.enum([
  'invalid-url',
  'unsupported-scheme',
  'credentials-in-url',
  'blocked-address',
  'unresolvable',
  'unreachable',
  'timeout',
  'too-many-redirects',
  'redirect-loop',
  'bad-redirect',
  'aborted',
  'not-found',
  'http-error',
]);
/** `link-limit`: the crawl's budget of addresses to follow was spent and the rest were left (so not every page was met). */
export const CrawlStopReasonSchema = z.enum([
  'exhausted',
  'page-limit',
  'size-limit',
  'failure-limit',
  'cancelled',
  'link-limit',
]);

export const CrawlRequestedSchema = z.object({
  crawlId: Id,
  /** The assistant the pages are for; null for a preview started without one (its pages are scored without keywords). */
  assistantId: Id.nullable(),
  ownerId: Id,
  mode: CrawlModeSchema,
  startUrl: Url,
  maxPages: z.number().int().positive(),
  maxDepth: z.number().int().nonnegative(),
  deleteOrphanedPages: z.boolean(),
  /** The assistant's crawler configuration it runs for (crawl, recrawl); null for a preview. */
  configId: Id.nullable(),
  /** Words the owner asked the relevance score to favour, beside the assistant's description and instructions. */
  keywords: z.array(z.string().max(100)).max(50),
});
export type CrawlRequested = z.infer<typeof CrawlRequestedSchema>;

/** robots.txt was read for an origin (one per origin the crawl touches). */
export const CrawlRobotsReadSchema = z.object({
  crawlId: Id,
  origin: Url,
  note: z.string(),
  crawlDelaySeconds: z.number().nonnegative().nullable(),
  sitemaps: z.array(Url).max(50),
});
export type CrawlRobotsRead = z.infer<typeof CrawlRobotsReadSchema>;

export const PageDiscoveredSchema = z.object({
  crawlId: Id,
  url: Url,
  /** The dedup key (normalised address). */
  key: Url,
  depth: z.number().int().nonnegative(),
  source: DiscoverySourceSchema,
  fromUrl: Url.nullable(),
  /** The sitemap's lastmod for the page, when a sitemap listed it with one (a recrawl compares it). */
  lastmod: z.string().max(100).nullable().optional(),
});
export type PageDiscovered = z.infer<typeof PageDiscoveredSchema>;

/** Addresses one event may carry: a page's links after the per-page bound (crawl-runner's maxLinksPerPage). */
export const PAGES_DISCOVERED_MAX = 1000;

/**
 * Addresses added to the crawl's frontier, several in one event (those one page or one sitemap gave, in
 * the order they were found): the frontier is recorded compactly, not one event per link. Crawls recorded
 * before it have one PageDiscovered per address; both read the same.
 */
export const PagesDiscoveredSchema = z.object({
  crawlId: Id,
  fromUrl: Url.nullable(),
  pages: z
    .array(
      z.object({
        url: Url,
        key: Url,
        depth: z.number().int().nonnegative(),
        source: DiscoverySourceSchema,
        lastmod: z.string().max(100).nullable().optional(),
      }),
    )
    .min(1)
    .max(PAGES_DISCOVERED_MAX),
});
export type PagesDiscovered = z.infer<typeof PagesDiscoveredSchema>;

export const PageFetchedSchema = z.object({
  crawlId: Id,
  url: Url,
  finalUrl: Url,
  key: Url,
  depth: z.number().int().nonnegative(),
  status: z.number().int(),
  /** 304 to a conditional request: unchanged since the last crawl, nothing re-ingested. */
  notModified: z.boolean(),
  kind: PageKindSchema,
  title: z.string().max(500).nullable(),
  language: z.enum(['he', 'en', 'other']).nullable(),
  characters: z.number().int().nonnegative(),
  /** What the page counts towards the crawl's 10 MB. */
  bytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
  note: z.string().nullable(),
  /** Blob key of the extracted text (HTML) or of the file (PDF, Word): equal hashes, unchanged knowledge. */
  contentSha256: Sha256.nullable(),
  /** Blob key of the page's clean main-content HTML, for ingestion with headings. */
  htmlSha256: Sha256.nullable(),
  etag: z.string().max(500).nullable(),
  lastModified: z.string().max(100).nullable(),
  isSalesPage: z.boolean(),
  salesCategory: PageCategorySchema.nullable(),
  detectionReason: z.string().max(500).nullable(),
  /**
   * Same-site links (the inbound-link score counts them; a later 304 carries discovery on from them). New
   * crawls record at most the first 100 the crawl follows (crawl-recording.ts); older events hold up to 2,000.
   */
  links: z.array(Url).max(2000),
});
export type PageFetched = z.infer<typeof PageFetchedSchema>;

export const PageFailedSchema = z.object({
  crawlId: Id,
  url: Url,
  key: Url,
  depth: z.number().int().nonnegative(),
  reason: PageFailureReasonSchema,
  message: z.string().min(1),
  status: z.number().int().nullable(),
});
export type PageFailed = z.infer<typeof PageFailedSchema>;

export const PageSkippedSchema = z.object({
  crawlId: Id,
  url: Url,
  key: Url,
  depth: z.number().int().nonnegative(),
  reason: PageSkipReasonSchema,
  detail: z.string(),
});
export type PageSkipped = z.infer<typeof PageSkippedSchema>;

/** The relevance score of a kept page, known once the crawl's link graph is complete. */
export const PageScoredSchema = z.object({
  crawlId: Id,
  key: Url,
  relevanceScore: z.number().min(0).max(1),
  explanation: z.string().max(1000),
});
export type PageScored = z.infer<typeof PageScoredSchema>;

export const CrawlCompletedSchema = z.object({
  crawlId: Id,
  /** completed: covered; stopped: a limit or a cancel cut it short (the message says which). */
  status: z.enum(['completed', 'stopped']),
  reason: CrawlStopReasonSchema,
  message: z.string().min(1),
  pagesKept: z.number().int().nonnegative(),
  pagesFailed: z.number().int().nonnegative(),
  pagesSkipped: z.number().int().nonnegative(),
  pagesDiscovered: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
});
export type CrawlCompleted = z.infer<typeof CrawlCompletedSchema>;

export const CrawlFailedSchema = z.object({
  crawlId: Id,
  reason: z.union([PageFailureReasonSchema, z.enum(['robots', 'no-pages'])]),
  message: z.string().min(1),
});
export type CrawlFailed = z.infer<typeof CrawlFailedSchema>;

/**
 * A crawl or recrawl's pages were put into the assistant's knowledge (after CrawlCompleted): how many
 * were linked (new or replaced), left as they were (unchanged content, not re-ingested), removed as
 * orphans, or could not be added (the plan's file limit). The crawl is finished with it.
 */
export const CrawlPagesLinkedSchema = z.object({
  crawlId: Id,
  assistantId: Id,
  linked: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  notAdded: z.number().int().nonnegative(),
  /** Why pages were left out (a catalogue text), so readers need not take it from the English message. */
  notAddedReason: z.string().optional(),
  message: z.string().min(1),
});
export type CrawlPagesLinked = z.infer<typeof CrawlPagesLinkedSchema>;
