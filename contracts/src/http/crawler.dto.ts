import { z } from 'zod';
import { PageCategorySchema } from '../events/crawl.events.js';
import { CrawlIntervalSchema } from '../events/crawler-site.events.js';
import { crawlerLimits, crawlerMessages } from '../rules/crawler.js';

/**
 * The Smart Web Crawler's HTTP shapes (spec §3, §7): /web-crawler/*, /crawler-settings/*,
 * /assistants/{id}/crawler-pages and the progress messages of /ws/crawl-progress/{crawlId}.
 */

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** A website address as the crawler forms send it: required, trimmed, a full http(s) URL (spec §5). */
const websiteUrl = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(2048, crawlerMessages.invalidUrl)
    .refine(isHttpUrl, { message: crawlerMessages.invalidUrl });

/** `manual` is how the spec names `none` in one place ("none/manual only"). */
const interval = z.preprocess((value) => (value === 'manual' ? 'none' : value), CrawlIntervalSchema);

/** Assistant ids arrive as numbers or numeric strings. */
const AssistantIdSchema = z.coerce
  .number({ error: 'Invalid assistant ID' })
  .int('Invalid assistant ID')
  .positive('Invalid assistant ID')
  .max(2_147_483_647, 'Invalid assistant ID');

const MaxPages = z.number().int().min(1).max(10_000);
const MaxDepth = z.number().int().min(0).max(50);

/** POST /web-crawler/: configure the assistant's crawler (or reconfigure it) and, by default, start a crawl. */
export const CreateCrawlerBodySchema = z.object({
  assistant_id: AssistantIdSchema,
  website_url: websiteUrl(crawlerMessages.websiteRequired),
  crawl_interval: interval.default(crawlerLimits.create.crawlInterval),
  max_pages: MaxPages.default(crawlerLimits.create.maxPages),
  max_depth: MaxDepth.default(crawlerLimits.create.maxDepth),
  delete_orphaned_pages: z.boolean().default(crawlerLimits.create.deleteOrphanedPages),
  /** false: only save the configuration (the dialog then previews and commits); true (default): crawl and add every page found. */
  start_crawl: z.boolean().default(true),
  /**
   * What a started crawl covers: `site` (default) crawls the whole site and adds every page found (the
   * create flow, Crawl Again); `held` refreshes only the pages the owner chose, when the assistant holds
   * some of this site (the Edit page turning the crawler back on), and crawls the whole site otherwise.
   */
  pages: z.enum(['site', 'held']).default('site'),
});
export type CreateCrawlerBody = z.infer<typeof CreateCrawlerBodySchema>;

/** PUT /web-crawler/{id}. */
export const UpdateCrawlerBodySchema = z
  .object({
    website_url: websiteUrl(crawlerMessages.websiteRequired),
    crawl_interval: interval,
    max_pages: MaxPages,
    max_depth: MaxDepth,
    delete_orphaned_pages: z.boolean(),
  })
  .partial();
export type UpdateCrawlerBody = z.infer<typeof UpdateCrawlerBodySchema>;

export const CrawlerConfigIdParamSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[A-Za-z0-9_-]+$/, crawlerMessages.configNotFound),
});
export const CrawlIdParamSchema = z.object({
  crawlId: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9_-]+$/, crawlerMessages.crawlNotFound),
});
export const CrawledUrlIdParamSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[A-Za-z0-9_-]+$/, crawlerMessages.urlNotFound),
});

export const CrawlStatusSchema = z.enum(['starting', 'crawling', 'completed', 'error']);

/** Spec §3 crawler configuration, with the limits it crawls with and its last crawl. */
export const CrawlerConfigSchema = z.object({
  id: z.string(),
  assistant_id: z.number().int(),
  website_url: z.string(),
  crawl_interval: CrawlIntervalSchema,
  max_pages: z.number().int(),
  max_depth: z.number().int(),
  delete_orphaned_pages: z.boolean(),
  /** ISO 8601; null before the first crawl finished. */
  last_crawled: z.string().nullable(),
  /** Pages of the site in the assistant's knowledge. */
  files_count: z.number().int(),
  next_crawl_at: z.string().nullable(),
  /** Why the schedule is paused (the plan no longer includes scheduled recrawl); null while it runs or there is none. */
  schedule_paused_reason: z.string().nullable(),
  last_crawl_id: z.string().nullable(),
  last_crawl_status: CrawlStatusSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CrawlerConfigDto = z.infer<typeof CrawlerConfigSchema>;

/** POST /web-crawler/ answers `data.data.crawl_id` (spec §7). */
export const CreateCrawlerResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    crawl_id: z.string().nullable(),
    crawler_config_id: z.string(),
    assistant_id: z.number().int(),
    website_url: z.string(),
    crawl_interval: CrawlIntervalSchema,
    status: CrawlStatusSchema.nullable(),
  }),
});

export const CrawlerConfigResponseSchema = z.object({ success: z.literal(true), data: CrawlerConfigSchema.nullable() });
export const CrawlerConfigListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(CrawlerConfigSchema),
});
export const CrawlerUpdatedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: CrawlerConfigSchema,
});
export const CrawlerMessageResponseSchema = z.object({ success: z.literal(true), message: z.string() });

/** POST /web-crawler/{id}/test: can the site be crawled right now? */
export const CrawlerTestResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  url: z.string(),
  status_code: z.number().int().nullable(),
  robots_allowed: z.boolean().nullable(),
});

/** Spec §3 preview file. */
export const PreviewFileSchema = z.object({
  filename: z.string(),
  title: z.string(),
  url: z.string(),
  size_kb: z.number(),
  /** 0–1 (shown as a percent), with the features that gave it. */
  relevance_score: z.number(),
  relevance_explanation: z.string().nullable(),
  content_length: z.number().int(),
  preview: z.string(),
  content: z.string(),
  is_sales_page: z.boolean(),
  sales_category: PageCategorySchema.nullable(),
  detection_reason: z.string().nullable(),
  kind: z.enum(['html', 'pdf', 'docx', 'txt']),
  depth: z.number().int(),
});
export type PreviewFileDto = z.infer<typeof PreviewFileSchema>;

/** POST /web-crawler/smart-crawl-preview (spec §7: website_url, keywords [], max_depth 2, focus_areas []). */
export const SmartCrawlPreviewBodySchema = z.object({
  website_url: websiteUrl(crawlerMessages.websiteRequired),
  keywords: z.array(z.string().max(100)).max(50).default([]),
  max_depth: MaxDepth.max(5).default(crawlerLimits.preview.maxDepth),
  focus_areas: z.array(z.string().max(100)).max(50).default([]),
  /** The assistant the pages are for: its description and instructions score them. */
  assistant_id: AssistantIdSchema.optional(),
  max_pages: MaxPages.optional(),
});

/** Spec §3 crawl preview result. */
export const SmartCrawlPreviewResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  preview_id: z.string(),
  assistant_id: z.number().int().nullable(),
  files_found: z.number().int(),
  processed_files: z.number().int(),
  total_files: z.number().int(),
  preview_files: z.array(PreviewFileSchema),
  crawl_result: z.object({
    base_url: z.string(),
    total_files: z.number().int(),
    preview_files: z.array(PreviewFileSchema),
    sales_pages: z.array(PreviewFileSchema),
    sales_pages_count: z.number().int(),
  }),
});
export type SmartCrawlPreviewResponse = z.infer<typeof SmartCrawlPreviewResponseSchema>;

const selectedNames = z.array(z.string().min(1).max(255)).max(10_000).min(1, crawlerMessages.selectPages);

/** POST /web-crawler/smart-crawl-commit. */
export const SmartCrawlCommitBodySchema = z.object({
  preview_id: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9_-]+$/, crawlerMessages.previewNotFound),
  assistant_id: AssistantIdSchema,
  selected_filenames: selectedNames,
});

/** POST /web-crawler/commit-files: pages of the configuration's latest crawl, by file name. */
export const CommitFilesBodySchema = z.object({
  crawler_config_id: z.string().min(1).max(80),
  selected_file_names: selectedNames,
});

export const CommitResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  assistant_id: z.number().int(),
  /** Pages added or replaced; pages whose content had not changed are counted in `unchanged`. */
  committed_files: z.number().int(),
  unchanged_files: z.number().int(),
  /** Pages the plan's file limit left out. */
  failed_files: z.array(z.object({ filename: z.string(), reason: z.string() })),
});

/** POST /web-crawler/fetch-single-url (Add Missing Page). */
export const FetchSingleUrlBodySchema = z.object({
  url: z
    .string({ error: crawlerMessages.urlRequired })
    .trim()
    .min(1, crawlerMessages.urlRequired)
    .max(2048, crawlerMessages.invalidUrl)
    .refine(isHttpUrl, { message: crawlerMessages.invalidUrl }),
  base_url: z.string().trim().max(2048).optional(),
  /** The preview the page joins (so that it can be committed with it); the owner's latest of that site otherwise. */
  preview_id: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
});
export const FetchSingleUrlResponseSchema = z.object({
  message: z.string(),
  preview_id: z.string(),
  file_data: PreviewFileSchema,
});

export const TrainingStatusSchema = z.enum(['trained', 'failed', 'outdated', 'pending']);

/** Spec §3 crawled URL record. */
export const CrawledUrlSchema = z.object({
  id: z.string(),
  source_url: z.string(),
  page_title: z.string().nullable(),
  character_count: z.number().int(),
  file_size: z.number().int(),
  last_crawled_at: z.string().nullable(),
  training_status: TrainingStatusSchema,
  is_enabled: z.boolean(),
  openai_file_id: z.string().nullable(),
  filename: z.string(),
  is_sales_page: z.boolean(),
  sales_category: PageCategorySchema.nullable(),
});
export type CrawledUrlDto = z.infer<typeof CrawledUrlSchema>;

const booleanQuery = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value === '' ? undefined : value),
  z.boolean().optional(),
);

export const CrawledUrlsQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  is_enabled: booleanQuery,
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(crawlerLimits.settingsPageSize),
});
export const CrawledUrlsResponseSchema = z.object({ urls: z.array(CrawledUrlSchema), total: z.number().int() });

/** Spec §3 crawler stats. */
export const CrawlerStatsSchema = z.object({
  total_urls: z.number().int(),
  disabled_urls: z.number().int(),
  total_characters: z.number().int(),
  total_size_bytes: z.number().int(),
  last_crawl_time: z.string().nullable(),
});

export const UpdateCrawledUrlBodySchema = z.object({ is_enabled: z.boolean() });
export const ToggledUrlResponseSchema = CrawledUrlSchema.extend({ message: z.string() });
export const CrawledUrlContentResponseSchema = z.union([
  z.object({ content: z.string(), source_url: z.string(), page_title: z.string().nullable() }),
  z.object({ error: z.string() }),
]);
export const DeleteCrawledUrlsBodySchema = z.object({ url_ids: z.array(z.string().min(1).max(80)).min(1).max(10_000) });
export const DeleteCrawledUrlsResponseSchema = z.object({ message: z.string(), deleted_count: z.number().int() });

/** GET /assistants/{id}/crawler-pages: the pages the assistant holds, for the File Selection preset. */
export const CrawlerPagesResponseSchema = z.object({
  selected_pages: z.array(
    z.object({
      url: z.string(),
      filename: z.string(),
      title: z.string().nullable(),
      is_enabled: z.boolean(),
      is_sales_page: z.boolean(),
    }),
  ),
});

/** Spec §3 crawl progress message, as the WebSocket sends it. */
export const CrawlProgressMessageSchema = z.object({
  type: z.enum(['crawl_progress', 'error']),
  crawl_id: z.string(),
  status: CrawlStatusSchema,
  pages_discovered: z.number().int(),
  pages_processed: z.number().int(),
  pages_linked_to_assistant: z.number().int(),
  progress_percentage: z.number(),
  current_url: z.string().nullable(),
  estimated_total: z.number().int(),
  /** Seconds since the crawl was requested (to its end once finished). */
  duration: z.number(),
  assistant_name: z.string().nullable(),
  message: z.string().nullable(),
  /**
   * Once a crawl's pages are added: what that did, as numbers (and the reason some were left out, a
   * catalogue text), so a client says it in its own language rather than showing `message`.
   */
  completion: z
    .object({
      added: z.number().int(),
      unchanged: z.number().int(),
      removed: z.number().int(),
      not_added: z.number().int(),
      not_added_reason: z.string().nullable(),
    })
    .nullable()
    .optional(),
});
export type CrawlProgressMessage = z.infer<typeof CrawlProgressMessageSchema>;

export type SmartCrawlPreviewBody = z.infer<typeof SmartCrawlPreviewBodySchema>;
export type CommitResponse = z.infer<typeof CommitResponseSchema>;
export type CrawlerTestResponse = z.infer<typeof CrawlerTestResponseSchema>;
export type FetchSingleUrlBody = z.infer<typeof FetchSingleUrlBodySchema>;
export type FetchSingleUrlResponse = z.infer<typeof FetchSingleUrlResponseSchema>;

/**
 * The preview as a job (issue 25 item 2): POST /web-crawler/smart-crawl-preview/jobs (the preview call's
 * body) answers 202 at once with the preview id; the client follows the scan over the progress socket
 * (/ws/crawl-progress/{preview_id}) and fetches the answer from GET /web-crawler/smart-crawl-preview/jobs/{preview_id}:
 * 202 with the progress while it runs, 200 with the spec's preview result once done, 422 with the reason
 * when the scan failed. The spec's one waiting call stays as it was.
 */
export const PreviewJobStartedSchema = z.object({
  success: z.literal(true),
  preview_id: z.string(),
  status: z.literal('starting'),
});
export type PreviewJobStarted = z.infer<typeof PreviewJobStartedSchema>;
export const PreviewJobIdParamSchema = z.object({
  previewId: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9_-]+$/, crawlerMessages.previewNotFound),
});
export const PreviewJobRunningSchema = z.object({
  status: z.enum(['starting', 'crawling']),
  preview_id: z.string(),
  progress: CrawlProgressMessageSchema,
});
export const PreviewJobDoneSchema = z.object({
  status: z.literal('completed'),
  preview_id: z.string(),
  result: SmartCrawlPreviewResponseSchema,
});
export const PreviewJobSchema = z.discriminatedUnion('status', [PreviewJobRunningSchema, PreviewJobDoneSchema]);
export type PreviewJob = z.infer<typeof PreviewJobSchema>;
