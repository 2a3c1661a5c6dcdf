import {
  crawledPageFileName,
  crawlerLimits,
  type CrawledUrlDto,
  type CrawlerSettings,
  type PageDiscovered,
  type PageFetched,
  type PageScored,
  type CrawlerConfigDto,
  type CrawlProgressMessage,
  type PreviewFileDto,
} from '@kesher/contracts';
import type {
  CrawledUrlRecord,
  CrawlerConfigRecord,
  CrawlPageRecord,
  CrawlRecord,
} from '@kesher/projections/crawler/crawler.queries';
import type { CommitCandidate } from '../site-knowledge.js';

export const toConfigDto = (config: CrawlerConfigRecord): CrawlerConfigDto => ({
  id: config.configId,
  assistant_id: config.assistantNumericId,
  website_url: config.websiteUrl,
  crawl_interval: config.crawlInterval,
  max_pages: config.maxPages,
  max_depth: config.maxDepth,
  delete_orphaned_pages: config.deleteOrphanedPages,
  last_crawled: config.lastCrawled,
  files_count: config.filesCount,
  next_crawl_at: config.nextCrawlAt,
  schedule_paused_reason: config.schedulePausedReason,
  last_crawl_id: config.lastCrawlId,
  last_crawl_status: config.lastCrawlStatus,
  created_at: config.createdAt,
  updated_at: config.updatedAt,
});

/**
 * A page just added to a preview (Add Missing Page) as the crawler read model will hold it, built from the
 * events the command appended: what the answer shows when the read model has not applied them yet.
 */
export const addedPageRecord = (page: {
  discovered: PageDiscovered;
  fetched: PageFetched;
  scored: PageScored;
}): CrawlPageRecord => {
  const f = page.fetched;
  return {
    key: f.key,
    url: f.url,
    finalUrl: f.finalUrl,
    depth: f.depth,
    source: page.discovered.source,
    title: f.title,
    kind: f.kind,
    language: f.language,
    characters: f.characters,
    bytes: f.bytes,
    truncated: f.truncated,
    note: f.note,
    contentSha256: f.contentSha256,
    htmlSha256: f.htmlSha256,
    etag: f.etag,
    lastModified: f.lastModified,
    notModified: f.notModified,
    isSalesPage: f.isSalesPage,
    salesCategory: f.salesCategory,
    detectionReason: f.detectionReason,
    relevanceScore: page.scored.relevanceScore,
    relevanceExplanation: page.scored.explanation,
    filename: crawledPageFileName(f.key, f.kind),
  };
};

/**
 * A configuration as just changed, when the read model has not applied the change: the settings the
 * command decided over the row read before it (what the read model derives — next crawl, counts — as it was).
 */
export const decidedConfig = (
  before: CrawlerConfigRecord,
  settings: CrawlerSettings,
  now: Date,
): CrawlerConfigRecord => ({ ...before, ...settings, updatedAt: now.toISOString() });

/** A kept page of a crawl as the File Selection modal shows it; `text` is its extracted text (a document's read in the sandbox). */
export const toPreviewFile = (page: CrawlPageRecord, text: string): PreviewFileDto => ({
  filename: page.filename,
  title: page.title ?? page.url,
  url: page.url,
  size_kb: Math.round((page.bytes / 1024) * 10) / 10,
  relevance_score: page.relevanceScore ?? 0,
  relevance_explanation: page.relevanceExplanation,
  // A document's length is only known once its text is read (the crawl stores the document itself).
  content_length: page.characters || text.length,
  preview: text.slice(0, crawlerLimits.previewChars),
  content: text.slice(0, crawlerLimits.contentChars),
  is_sales_page: page.isSalesPage,
  sales_category: page.isSalesPage ? page.salesCategory : null,
  detection_reason: page.isSalesPage ? page.detectionReason : null,
  kind: page.kind,
  depth: page.depth,
});

export const toCommitCandidate = (page: CrawlPageRecord): CommitCandidate => ({
  key: page.key,
  url: page.url,
  title: page.title,
  kind: page.kind,
  characters: page.characters,
  contentSha256: page.contentSha256,
  htmlSha256: page.htmlSha256,
  filename: page.filename,
  isSalesPage: page.isSalesPage,
  salesCategory: page.salesCategory,
  relevanceScore: page.relevanceScore,
  etag: page.etag,
  lastModified: page.lastModified,
});

export const toCrawledUrlDto = (url: CrawledUrlRecord): CrawledUrlDto => ({
  id: url.id,
  source_url: url.sourceUrl,
  page_title: url.pageTitle,
  character_count: url.characterCount,
  file_size: url.fileSize,
  last_crawled_at: url.lastCrawledAt,
  training_status: url.trainingStatus,
  is_enabled: url.isEnabled,
  openai_file_id: url.fileId,
  filename: url.filename,
  is_sales_page: url.isSalesPage,
  sales_category: url.isSalesPage ? url.salesCategory : null,
});

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The spec's crawl progress message from the crawl's read-model row. Finding pages is the first 90 % of
 * a crawl that adds its pages to the assistant, adding them the last 10 % (a preview only finds them).
 * The expected total is the page budget, or what is left to fetch of the pages found when that is less.
 */
export function crawlProgressMessage(crawl: CrawlRecord, now: Date): CrawlProgressMessage {
  const processed = crawl.pagesFetched + crawl.pagesFailed + crawl.pagesSkipped;
  const finished = crawl.status === 'completed' || crawl.status === 'error';
  const open = Math.max(crawl.pagesFetched, crawl.pagesDiscovered - crawl.pagesFailed - crawl.pagesSkipped);
  const estimatedTotal = crawl.status === 'completed' ? crawl.pagesFetched : Math.min(crawl.maxPages, open);
  const found = estimatedTotal > 0 ? Math.min(1, crawl.pagesFetched / estimatedTotal) : 0;
  const adds = crawl.mode !== 'preview';
  let percentage: number;
  if (crawl.status === 'completed') percentage = 100;
  else if (crawl.status === 'starting') percentage = 0;
  else if (!adds) percentage = 99 * found;
  else if (crawl.outcomeStatus)
    percentage = 90 + 9 * (crawl.pagesFetched > 0 ? Math.min(1, crawl.pagesLinked / crawl.pagesFetched) : 1);
  else percentage = 90 * found;
  const end = crawl.finishedAt ? Date.parse(crawl.finishedAt) : now.getTime();
  return {
    type: crawl.status === 'error' ? 'error' : 'crawl_progress',
    crawl_id: crawl.crawlId,
    status: crawl.status,
    pages_discovered: crawl.pagesDiscovered,
    pages_processed: processed,
    pages_linked_to_assistant: crawl.pagesLinked,
    progress_percentage: round1(percentage),
    current_url: crawl.currentUrl,
    estimated_total: estimatedTotal,
    duration: round1(Math.max(0, end - Date.parse(crawl.requestedAt)) / 1000),
    assistant_name: crawl.assistantName,
    message: finished ? crawl.message : crawl.outcomeStatus ? 'Adding the pages to the assistant...' : null,
    completion: crawl.status === 'completed' ? crawl.completion : null,
  };
}
