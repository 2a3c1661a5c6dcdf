import { z } from 'zod';
import { PageCategorySchema, PageKindSchema } from './crawl.events.js';

/**
 * The website of one assistant (stream `crawlersite-<assistantId>`): its crawler configuration and the
 * crawled pages it holds as knowledge (spec §3 crawler configuration and crawled URL record). Each page
 * is one knowledge file whose source is the page's address; the file's own stream says whether it was
 * read. One stream per assistant orders commits, toggles, deletions and recrawls of the same pages.
 */
const Id = z.string().min(1);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Url = z.string().min(1).max(4096);

/** Spec §3/§9: none (manual only), 4h, 8h, 24h, 3d, 1w. */
export const CrawlIntervalSchema = z.enum(['none', '4h', '8h', '24h', '3d', '1w']);
export type CrawlInterval = z.infer<typeof CrawlIntervalSchema>;

export const CrawlerSettingsSchema = z.object({
  websiteUrl: Url,
  crawlInterval: CrawlIntervalSchema,
  maxPages: z.number().int().positive(),
  maxDepth: z.number().int().nonnegative(),
  deleteOrphanedPages: z.boolean(),
});
export type CrawlerSettings = z.infer<typeof CrawlerSettingsSchema>;

export const CrawlerConfiguredSchema = CrawlerSettingsSchema.extend({
  assistantId: Id,
  ownerId: Id,
  configId: Id,
});
export type CrawlerConfigured = z.infer<typeof CrawlerConfiguredSchema>;

export const CrawlerConfigUpdatedSchema = z.object({
  assistantId: Id,
  configId: Id,
  /** Only what changed. */
  changes: CrawlerSettingsSchema.partial(),
});
export type CrawlerConfigUpdated = z.infer<typeof CrawlerConfigUpdatedSchema>;

/**
 * A scheduled recrawl came due and was not run: the owner's plan no longer includes scheduled recrawl.
 * The schedule stays paused (no next crawl) until the interval is saved again on a plan that has it.
 */
export const CrawlerSchedulePausedSchema = z.object({
  assistantId: Id,
  configId: Id,
  reason: z.string().min(1),
  dueAt: z.string(),
});
export type CrawlerSchedulePaused = z.infer<typeof CrawlerSchedulePausedSchema>;

/** The configuration and its schedule are gone; the pages already in the knowledge stay. */
export const CrawlerConfigDeletedSchema = z.object({ assistantId: Id, configId: Id });
export type CrawlerConfigDeleted = z.infer<typeof CrawlerConfigDeletedSchema>;

/**
 * A crawled page became (or, with new content, replaced) one of the assistant's knowledge files. The file
 * `fileId` is uploaded with the page's address as its source; `replacedFileId` is the page's previous
 * file, deleted once the new one is recorded.
 */
export const CrawledPageCommittedSchema = z.object({
  assistantId: Id,
  ownerId: Id,
  pageId: Id,
  crawlId: Id,
  key: Url,
  url: Url,
  title: z.string().max(500).nullable(),
  kind: PageKindSchema,
  filename: z.string().min(1).max(255),
  characters: z.number().int().nonnegative(),
  /** Bytes of the knowledge file (the page's main content as HTML, or the document). */
  bytes: z.number().int().nonnegative(),
  /** The page's content hash at this crawl (extracted text, or the document): equal means unchanged. */
  contentSha256: Sha256,
  fileId: Id,
  /** Blob key of the knowledge file's bytes, held by the page itself: turning the page on again makes a new file from it. */
  fileSha256: Sha256,
  replacedFileId: Id.nullable(),
  isSalesPage: z.boolean(),
  salesCategory: PageCategorySchema.nullable(),
  relevanceScore: z.number().min(0).max(1).nullable(),
  etag: z.string().max(500).nullable(),
  lastModified: z.string().max(100).nullable(),
});
export type CrawledPageCommitted = z.infer<typeof CrawledPageCommittedSchema>;

/** Disabled: the page's file is deleted (no answers from it, not recrawled). Enabled: a new file from its last content. */
export const CrawledPageToggledSchema = z.object({
  assistantId: Id,
  pageId: Id,
  enabled: z.boolean(),
  /** The file made when enabling; null when disabling. */
  fileId: Id.nullable(),
  /** The file deleted when disabling; null when enabling. */
  removedFileId: Id.nullable(),
});
export type CrawledPageToggled = z.infer<typeof CrawledPageToggledSchema>;

/** Pages removed from the assistant, by the owner or as orphans (gone from the site, delete_orphaned_pages on). */
export const CrawledPagesDeletedSchema = z.object({
  assistantId: Id,
  pageIds: z.array(Id).min(1),
  /** Their files, deleted with them. */
  fileIds: z.array(Id),
  reason: z.enum(['owner', 'orphaned']),
});
export type CrawledPagesDeleted = z.infer<typeof CrawledPagesDeletedSchema>;
