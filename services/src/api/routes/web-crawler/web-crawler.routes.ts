import {
  CommitFilesBodySchema,
  CommitResponseSchema,
  CrawlerConfigIdParamSchema,
  CrawlIdParamSchema,
  CrawlProgressMessageSchema,
  CrawlerConfigListResponseSchema,
  CrawlerConfigResponseSchema,
  CrawlerMessageResponseSchema,
  CrawlerPagesResponseSchema,
  CrawlerTestResponseSchema,
  CrawlerUpdatedResponseSchema,
  CreateCrawlerBodySchema,
  CreateCrawlerResponseSchema,
  FetchSingleUrlBodySchema,
  FetchSingleUrlResponseSchema,
  NumericIdParamSchema,
  PreviewJobDoneSchema,
  PreviewJobIdParamSchema,
  PreviewJobRunningSchema,
  PreviewJobStartedSchema,
  SmartCrawlCommitBodySchema,
  SmartCrawlPreviewBodySchema,
  SmartCrawlPreviewResponseSchema,
  UpdateCrawlerBodySchema,
} from '@kesher/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type CrawlerCaller, CrawlerRefusal, type CrawlerService } from '../../../crawler/index.js';
import { ApiError } from '../../api-error.js';
import { commandContext, readModelsPending } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface CrawlerRoutesDeps {
  /** The crawler's use cases (crawler/service): the routes parse, call one, and reply. */
  crawler: CrawlerService;
  clock: () => Date;
}

/** The service's own refusals, as HTTP: a full storage is refused like an upload (413), a scan that ran out of time 504. */
const refusalStatus = { storage_full: 413, scan_timeout: 504 } as const;
async function answered<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof CrawlerRefusal) throw new ApiError(refusalStatus[error.kind], error.message);
    throw error;
  }
}

/** The signed-in owner as the service's caller; a write whose read models lag marks the answer pending. */
function callerOf(request: FastifyRequest, clock: () => Date): CrawlerCaller {
  const account = requireAccount(request);
  return {
    ownerId: account.id,
    context: commandContext(request, clock),
    onPending: (position, eventTypes) => readModelsPending(request, position, eventTypes),
  };
}

/**
 * The Smart Web Crawler's HTTP calls (spec §7; docs/crawler.md). Another owner's assistant,
 * configuration, crawl or preview is a 404 exactly like a missing one (the service's `not_found`).
 */
export const webCrawlerRoutes =
  (deps: CrawlerRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const { crawler } = deps;
    const caller = (request: FastifyRequest) => callerOf(request, deps.clock);
    const ownerOf = (request: FastifyRequest) => requireAccount(request).id;

    app.post(
      '/web-crawler/',
      {
        schema: {
          summary:
            "Configure the assistant's crawler (or change it) and, unless start_crawl is false, crawl the site and add its pages; answers data.crawl_id for the progress socket",
          body: CreateCrawlerBodySchema,
          response: { 200: CreateCrawlerResponseSchema },
        },
      },
      (request) => answered(crawler.configure(caller(request), request.body)),
    );

    app.get(
      '/web-crawler/assistant/:id',
      {
        schema: {
          summary: "The assistant's crawler configuration (data is null when it has none)",
          params: NumericIdParamSchema,
          response: { 200: CrawlerConfigResponseSchema },
        },
      },
      async (request) => ({
        success: true as const,
        data: await crawler.configOfAssistant(ownerOf(request), request.params.id),
      }),
    );

    app.get(
      '/web-crawler/user/all',
      {
        schema: {
          summary: 'Every crawler configuration of the signed-in owner',
          response: { 200: CrawlerConfigListResponseSchema },
        },
      },
      async (request) => ({ success: true as const, data: await crawler.configsOfOwner(ownerOf(request)) }),
    );

    app.put(
      '/web-crawler/:id',
      {
        schema: {
          summary: 'Change a crawler configuration (address, interval, limits, orphan deletion)',
          params: CrawlerConfigIdParamSchema,
          body: UpdateCrawlerBodySchema,
          response: { 200: CrawlerUpdatedResponseSchema },
        },
      },
      async (request) => ({
        success: true as const,
        message: 'Crawler updated',
        data: await crawler.update(caller(request), request.params.id, request.body),
      }),
    );

    app.delete(
      '/web-crawler/:id',
      {
        schema: {
          summary:
            "Remove the assistant's website: its crawler configuration and schedule go and its crawler is off (the pages already added stay in its knowledge)",
          params: CrawlerConfigIdParamSchema,
          response: { 200: CrawlerMessageResponseSchema },
        },
      },
      async (request) => {
        await crawler.remove(caller(request), request.params.id);
        return { success: true as const, message: 'Crawler deleted' };
      },
    );

    app.post(
      '/web-crawler/:id/test',
      {
        schema: {
          summary:
            "Whether the configuration's site can be crawled now: the address allowed, robots.txt read, the start page answering",
          params: CrawlerConfigIdParamSchema,
          response: { 200: CrawlerTestResponseSchema },
        },
      },
      (request) => crawler.test(ownerOf(request), request.params.id),
    );

    app.post(
      '/web-crawler/smart-crawl-preview',
      {
        schema: {
          summary:
            'Scan a website (depth 2 by default) and answer the pages found, scored, with the sales pages apart; waits for the scan (up to 600 s). The job calls below do the same without holding the request open',
          body: SmartCrawlPreviewBodySchema,
          response: { 200: SmartCrawlPreviewResponseSchema },
        },
      },
      // The client went away when its connection closed (the request itself was read long before).
      (request) =>
        answered(crawler.previewAndWait(caller(request), request.body, () => request.raw.socket?.destroyed === true)),
    );

    app.post(
      '/web-crawler/smart-crawl-preview/jobs',
      {
        schema: {
          summary:
            'Start scanning a website as a job: answers 202 with the preview id at once; follow it on /ws/crawl-progress/{preview_id} and fetch the pages from GET /web-crawler/smart-crawl-preview/jobs/{preview_id}',
          body: SmartCrawlPreviewBodySchema,
          response: { 202: PreviewJobStartedSchema },
        },
      },
      async (request, reply) => {
        const { previewId } = await answered(crawler.startPreview(caller(request), request.body));
        return reply.status(202).send({ success: true as const, preview_id: previewId, status: 'starting' as const });
      },
    );

    app.get(
      '/web-crawler/smart-crawl-preview/jobs/:previewId',
      {
        schema: {
          summary:
            "A preview job: 202 with its progress while the scan runs, 200 with the spec's preview result once done, 422 with the reason when the scan failed",
          params: PreviewJobIdParamSchema,
          response: { 200: PreviewJobDoneSchema, 202: PreviewJobRunningSchema },
        },
      },
      async (request, reply) => {
        const job = await crawler.previewJob(ownerOf(request), request.params.previewId);
        return reply.status(job.status === 'completed' ? 200 : 202).send(job);
      },
    );

    app.post(
      '/web-crawler/smart-crawl-commit',
      {
        schema: {
          summary:
            "Add the chosen pages of a preview to the assistant's knowledge (one file per page, cited by its address)",
          body: SmartCrawlCommitBodySchema,
          response: { 200: CommitResponseSchema },
        },
      },
      (request) =>
        crawler.commitPreview(caller(request), {
          assistantId: request.body.assistant_id,
          previewId: request.body.preview_id,
          filenames: request.body.selected_filenames,
        }),
    );

    app.post(
      '/web-crawler/commit-files',
      {
        schema: {
          summary:
            "Add the chosen pages (by file name) of the configuration's latest finished crawl or preview to its assistant",
          body: CommitFilesBodySchema,
          response: { 200: CommitResponseSchema },
        },
      },
      (request) =>
        crawler.commitLatest(caller(request), {
          configId: request.body.crawler_config_id,
          filenames: request.body.selected_file_names,
        }),
    );

    app.post(
      '/web-crawler/fetch-single-url',
      {
        schema: {
          summary:
            "Add Missing Page: fetch one page and add it to the latest preview of its site (or `preview_id`); a page the site's robots.txt refuses is refused (422)",
          body: FetchSingleUrlBodySchema,
          response: { 200: FetchSingleUrlResponseSchema },
        },
      },
      (request) => crawler.addMissingPage(caller(request), request.body),
    );

    app.get(
      '/web-crawler/crawls/:crawlId',
      {
        schema: {
          summary:
            "A crawl's progress, asked once (the socket's message): whether a crawl a client remembers still runs, has ended, or is gone (404)",
          params: CrawlIdParamSchema,
          response: { 200: CrawlProgressMessageSchema },
        },
      },
      (request) => crawler.crawlProgress(ownerOf(request), request.params.crawlId),
    );

    app.get(
      '/assistants/:id/crawler-pages',
      {
        schema: {
          summary: 'The crawled pages the assistant holds (File Selection presets its choice with them)',
          params: NumericIdParamSchema,
          response: { 200: CrawlerPagesResponseSchema },
        },
      },
      (request) => crawler.heldPages(ownerOf(request), request.params.id),
    );
  };
