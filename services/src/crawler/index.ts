/**
 * The public entry of the crawler: site crawls, previews, scheduling, extraction and the crawler service.
 * Other modules, the facade and the composition roots import only this file (DESIGN.md §3, eslint.config.js).
 */
export type { FrontierResume } from './crawl-frontier.js';
export { runCrawl } from './crawl-runner.js';
export type { CrawlEvent, CrawlLimits, CrawledPage, KnownPage } from './crawl-runner.js';
export { withCrawlRecords } from './crawl-storage.js';
export { crawlBlobHolder } from './page-identity.js';
export { assistantKeywords, scoreRelevance } from './relevance-scorer.js';
export type { AssistantKeywords } from './relevance-scorer.js';
export { planRevalidation, readSitemapLastmods } from './revalidation.js';
export { createCrawledPagesService } from './service/crawled-pages-service.js';
export type { CrawledPagesService } from './service/crawled-pages-service.js';
export { CrawlerRefusal, createCrawlerService } from './service/crawler-service.js';
export type { CrawlerCaller, CrawlerService } from './service/crawler-service.js';
export { crawlProgressMessage } from './service/crawler.mapper.js';
export { createSiteKnowledge } from './site-knowledge.js';
export type { CommitCandidate, SiteKnowledge } from './site-knowledge.js';
export { normalizeUrl } from './url-normalizer.js';
