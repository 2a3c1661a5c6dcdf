import { randomUUID } from 'node:crypto';
import {
  CommitFilesBodySchema,
  CommitResponseSchema,
  CrawlerConfigIdParamSchema,
  CrawlerConfigListResponseSchema,
  CrawlerConfigResponseSchema,
  CrawlerMessageResponseSchema,
  crawlerLimits,
  crawlerMessages,
  CrawlerPagesResponseSchema,
  CrawlerTestResponseSchema,
  CrawlerUpdatedResponseSchema,
  CreateCrawlerBodySchema,
  CreateCrawlerResponseSchema,
  FetchSingleUrlBodySchema,
  FetchSingleUrlResponseSchema,
  messages,
  NumericIdParamSchema,
  SmartCrawlCommitBodySchema,
  SmartCrawlPreviewBodySchema,
  SmartCrawlPreviewResponseSchema,
  streamIds,
  UpdateCrawlerBodySchema,
  type CrawlRequested,
} from '@kesher/contracts';
import { assistantQueries, type AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import { crawlerQueries, type CrawlPageRecord, type CrawlRecord } from '@kesher/projections/crawler/crawler.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { crawlBlobHolder } from '../../../crawler/page-identity.js';
import { assistantKeywords } from '../../../crawler/relevance-scorer.js';
import { robotsPolicyFromFetch, ROBOTS_MAX_BYTES } from '../../../crawler/robots-txt.js';
import { fetchSinglePage, SinglePageError } from '../../../crawler/single-page.js';
import { siteKnowledgeEventTypes, type SiteKnowledge } from '../../../crawler/site-knowledge.js';
import { crawlDecider } from '../../../domain/crawl/crawl.decider.js';
import { crawlerSiteDecider } from '../../../domain/crawl/crawler-site.decider.js';
import type { DocumentTextInput } from '../../../knowledge/document-text.js';
import { OutboundError } from '../../../outbound/outbound-error.js';
import type { OutboundFetch } from '../../../outbound/outbound-fetch.js';
import type { OutboundTargetCheck } from '../../../outbound/outbound-target.js';
import { featureAllowed, requireFeature } from '../../../plans/feature-gates.js';
import type { PlanOf } from '../../../plans/plan-book.js';
import type { StorageLimitOf } from '../../../plans/storage-limit.js';
import type { BlobStore } from '../../../platform/blobs/blob-store.port.js';
import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { ProgressBoard } from '../../../platform/projections/progress.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { commandContext, createCommandRunner, readModelsPending } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { addedPageRecord, decidedConfig, toCommitCandidate, toConfigDto, toPreviewFile } from './crawler.mapper.js';

export interface CrawlerRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  blobs: BlobStore;
  /** Commits, toggles and deletions of crawled pages (crawler/site-knowledge.ts). */
  site: SiteKnowledge;
  awaitReadModels: AwaitReadModels;
  /** The read models' progress: the preview and the progress socket wake when the crawler read model moves. */
  readModels: ProgressBoard;
  clock: () => Date;
  /** The SSRF guard's word on an address, before anything is queued for it. */
  checkTarget: OutboundTargetCheck;
  /** The guarded fetch (the settings' test, Add Missing Page). */
  fetch: OutboundFetch;
  /** The plan's max_crawl_pages caps every crawl. */
  planOf: PlanOf;
  /** The owner's storage (files and crawl records) and its limit: a full storage takes no new crawl. */
  storage?: { used: (ownerId: string) => Promise<number>; limitOf: StorageLimitOf };
  /** How long the smart preview waits for its crawl (spec: the client waits 600 s). */
  previewTimeoutMs?: number;
  /** A crawled document's text (PDF, DOCX), read in the extraction sandbox, for the preview to show. */
  documentText: (input: DocumentTextInput) => Promise<string>;
}

/** A finished preview nobody committed or replaced for this long is abandoned: its stored pages go. */
export const PREVIEW_RETENTION_MS = 24 * 3600_000;

const hexId = () => randomUUID().replaceAll('-', '');

/** An address the guard refuses, or a site that cannot be reached: the owner reads why (spec: the server's detail). */
function refused(error: unknown): never {
  if (error instanceof OutboundError) throw new ApiError(422, error.message);
  throw error;
}

export const webCrawlerRoutes =
  (deps: CrawlerRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const crawler = crawlerQueries(deps.readDb);
    const run = createCommandRunner(deps);

    async function ownedAssistant(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await assistants.findOwned(account.id, numericId);
      // Another owner's assistant answers exactly like a missing one.
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { account, row };
    }

    async function ownedConfig(request: FastifyRequest, configId: string) {
      const account = requireAccount(request);
      const config = await crawler.config(account.id, configId);
      if (!config) throw new ApiError(404, crawlerMessages.configNotFound);
      return { account, config };
    }

    const maxPagesFor = async (ownerId: string, wanted: number) => Math.max(1, Math.min(wanted, (await deps.planOf(ownerId)).limits.max_crawl_pages));

    async function requestCrawl(request: FastifyRequest, data: CrawlRequested) {
      // Every crawl stores records counted against the owner (crawler/crawl-storage.ts): a full storage
      // refuses the next one, as it refuses the next upload, rather than letting records pile up.
      if (deps.storage) {
        const [used, limit] = await Promise.all([deps.storage.used(data.ownerId), deps.storage.limitOf(data.ownerId)]);
        if (used >= limit.bytes) throw new ApiError(413, limit.message);
      }
      await run(request, crawlDecider, streamIds.crawl(data.crawlId), { type: 'RequestCrawl', data });
    }

    /** Waits until the crawl has finished (or the time is up, or the client went away); the crawl's row then. */
    async function finishedCrawl(request: FastifyRequest, ownerId: string, crawlId: string, timeoutMs: number): Promise<CrawlRecord | undefined> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const since = deps.readModels.position('crawler');
        const crawl = await crawler.crawl(ownerId, crawlId);
        if (!crawl || crawl.status === 'completed' || crawl.status === 'error') return crawl;
        const left = deadline - Date.now();
        // The client went away (its connection closed: the request itself is finished reading long before).
        if (left <= 0 || request.raw.socket?.destroyed) return crawl;
        await deps.readModels.waitForMove('crawler', since, Math.min(left, 5000));
      }
    }

    /** What the preview shows of a page: a web page's extracted text, or a document's text read as ingestion will read it. */
    async function pageText(ownerId: string, page: Pick<CrawlPageRecord, 'kind' | 'contentSha256' | 'filename'>): Promise<string> {
      if (!page.contentSha256) return '';
      const stored = await deps.blobs.get(page.contentSha256);
      if (!stored) return '';
      if (page.kind === 'html') return stored.toString('utf8');
      // A document that cannot be read shows no text, as before; committing it says why.
      return deps.documentText({ bytes: stored, kind: page.kind, filename: page.filename, ownerId }).catch(() => '');
    }

    async function previewFiles(ownerId: string, pages: readonly CrawlPageRecord[]) {
      return Promise.all(pages.map(async (page) => toPreviewFile(page, await pageText(ownerId, page))));
    }

    /**
     * What earlier previews stored (every page's text, clean HTML or document, held by the preview) is only
     * needed until they are committed or replaced: a new preview of the same assistant or site replaces
     * them, and one left alone for PREVIEW_RETENTION_MS is abandoned. Pages already committed are held by
     * their files and stay.
     */
    async function releaseSupersededPreviews(ownerId: string, crawlId: string, assistantId: string | null, url: string) {
      const superseded = await crawler.supersededPreviews(ownerId, {
        exceptCrawlId: crawlId,
        assistantId,
        host: new URL(url).host,
        staleBefore: new Date(deps.clock().getTime() - PREVIEW_RETENTION_MS),
      });
      for (const previewId of superseded) await deps.blobs.release(crawlBlobHolder(previewId));
    }

    async function commit(request: FastifyRequest, row: AssistantRow, crawl: CrawlRecord | undefined, filenames: readonly string[]) {
      const account = requireAccount(request);
      if (!crawl) throw new ApiError(404, crawlerMessages.previewNotFound);
      if (crawl.status === 'error') throw new ApiError(422, crawl.message ?? crawlerMessages.noPages);
      if (crawl.status !== 'completed' && !crawl.outcomeStatus) throw new ApiError(409, crawlerMessages.previewNotReady);
      const pages = await crawler.keptPagesNamed(crawl.crawlId, [...new Set(filenames)]);
      if (pages.length === 0) throw new ApiError(422, crawlerMessages.selectPages);
      const outcome = await deps.site.commitPages(commandContext(request, deps.clock), { ownerId: account.id, assistantId: row.id, crawlId: crawl.crawlId, pages: pages.map(toCommitCandidate) });
      // The answer is built from the outcome, not read back: a wait that ran out only marks it pending.
      if (outcome.position && !(await deps.awaitReadModels(outcome.position, siteKnowledgeEventTypes))) readModelsPending(request, outcome.position, siteKnowledgeEventTypes);
      // Every chosen page is now held by its file: the preview's copies go. A commit that left pages out
      // keeps them, so that the owner can make room and commit those again.
      if (crawl.mode === 'preview' && outcome.notAdded.length === 0) await deps.blobs.release(crawlBlobHolder(crawl.crawlId));
      const failed = outcome.notAdded.map((page) => ({ filename: page.filename, reason: page.reason }));
      let message = crawlerMessages.committed(outcome.committed.length);
      if (outcome.unchanged > 0) message += ` ${outcome.unchanged} unchanged.`;
      if (failed.length > 0) message += ` ${failed.length} not added: ${failed[0]!.reason}`;
      return { success: true as const, message, assistant_id: row.numeric_id, committed_files: outcome.committed.length, unchanged_files: outcome.unchanged, failed_files: failed };
    }

    app.post(
      '/web-crawler/',
      {
        schema: {
          summary: "Configure the assistant's crawler (or change it) and, unless start_crawl is false, crawl the site and add its pages; answers data.crawl_id for the progress socket",
          body: CreateCrawlerBodySchema,
          response: { 200: CreateCrawlerResponseSchema },
        },
      },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.body.assistant_id);
        const body = request.body;
        await deps.checkTarget(body.website_url).catch(refused);
        const existing = await crawler.configOfAssistant(account.id, row.id);
        const configId = existing?.configId ?? `cfg_${hexId()}`;
        // Scheduled recrawl is a paid feature (spec part 2 §6 "auto-sync"). The create flow always sends the
        // spec's default interval (24h), so on a plan without it the crawler is saved without a schedule
        // (manual only) rather than refused: the owner still gets the crawl. Changing the interval (PUT) is refused.
        const crawlInterval = body.crawl_interval !== 'none' && !featureAllowed(await deps.planOf(account.id), 'scheduled_recrawl') ? 'none' : body.crawl_interval;
        const configured = await run(request, crawlerSiteDecider, streamIds.crawlerSite(row.id), {
          type: 'ConfigureCrawler',
          data: {
            assistantId: row.id,
            ownerId: account.id,
            configId,
            settings: { websiteUrl: body.website_url, crawlInterval, maxPages: body.max_pages, maxDepth: body.max_depth, deleteOrphanedPages: body.delete_orphaned_pages },
          },
        });
        // The configuration as decided: one saved just before whose read model row is not there yet keeps
        // its id (the decider changed it rather than create another), so the answer names that one.
        const savedConfigId = configured.state.config?.configId ?? configId;
        let crawlId: string | null = null;
        let status: 'starting' | 'crawling' | null = null;
        if (body.start_crawl) {
          // Whether a crawl is under way is the row read before the write (the write does not change it):
          // nothing is read back from a read model that may not have applied the write.
          if (existing?.lastCrawlId && (existing.lastCrawlStatus === 'starting' || existing.lastCrawlStatus === 'crawling')) {
            // A crawl of this site is already under way: follow that one rather than start a second.
            crawlId = existing.lastCrawlId;
            status = existing.lastCrawlStatus;
          } else {
            crawlId = `crawl_${hexId()}`;
            status = 'starting';
            await requestCrawl(request, {
              crawlId,
              assistantId: row.id,
              ownerId: account.id,
              mode: 'crawl',
              startUrl: body.website_url,
              maxPages: await maxPagesFor(account.id, body.max_pages),
              maxDepth: body.max_depth,
              deleteOrphanedPages: body.delete_orphaned_pages,
              configId: savedConfigId,
              keywords: [],
            });
          }
        }
        return {
          success: true as const,
          message: crawlId ? crawlerMessages.crawlStarted : 'Crawler configured',
          data: { crawl_id: crawlId, crawler_config_id: savedConfigId, assistant_id: row.numeric_id, website_url: body.website_url, crawl_interval: crawlInterval, status },
        };
      },
    );

    app.get(
      '/web-crawler/assistant/:id',
      { schema: { summary: "The assistant's crawler configuration (data is null when it has none)", params: NumericIdParamSchema, response: { 200: CrawlerConfigResponseSchema } } },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        const config = await crawler.configOfAssistant(account.id, row.id);
        return { success: true as const, data: config ? toConfigDto(config) : null };
      },
    );

    app.get(
      '/web-crawler/user/all',
      { schema: { summary: "Every crawler configuration of the signed-in owner", response: { 200: CrawlerConfigListResponseSchema } } },
      async (request) => {
        const account = requireAccount(request);
        return { success: true as const, data: (await crawler.configsOfOwner(account.id)).map(toConfigDto) };
      },
    );

    app.put(
      '/web-crawler/:id',
      { schema: { summary: 'Change a crawler configuration (address, interval, limits, orphan deletion)', params: CrawlerConfigIdParamSchema, body: UpdateCrawlerBodySchema, response: { 200: CrawlerUpdatedResponseSchema } } },
      async (request) => {
        const { account, config } = await ownedConfig(request, request.params.id);
        const body = request.body;
        // A schedule needs a plan with scheduled recrawl: 403 with the gate's text, nothing saved.
        if (body.crawl_interval && body.crawl_interval !== 'none') await requireFeature(deps.planOf, account.id, 'scheduled_recrawl');
        if (body.website_url) await deps.checkTarget(body.website_url).catch(refused);
        const result = await run(request, crawlerSiteDecider, streamIds.crawlerSite(config.assistantId), {
          type: 'UpdateCrawlerConfig',
          data: {
            configId: config.configId,
            ownerId: account.id,
            changes: { websiteUrl: body.website_url, crawlInterval: body.crawl_interval, maxPages: body.max_pages, maxDepth: body.max_depth, deleteOrphanedPages: body.delete_orphaned_pages },
          },
        });
        const decided = result.state.config;
        // Behind (the answer is marked pending): the settings as decided, not the row the read model still has.
        const updated = result.readModelsCurrent ? await crawler.config(account.id, config.configId) : decided && decidedConfig(config, decided, deps.clock());
        if (!updated) throw new ApiError(404, crawlerMessages.configNotFound);
        return { success: true as const, message: 'Crawler updated', data: toConfigDto(updated) };
      },
    );

    app.delete(
      '/web-crawler/:id',
      { schema: { summary: "Delete a crawler configuration and its schedule (the pages already added stay in the assistant's knowledge)", params: CrawlerConfigIdParamSchema, response: { 200: CrawlerMessageResponseSchema } } },
      async (request) => {
        const { account, config } = await ownedConfig(request, request.params.id);
        await run(request, crawlerSiteDecider, streamIds.crawlerSite(config.assistantId), { type: 'DeleteCrawlerConfig', data: { configId: config.configId, ownerId: account.id } });
        return { success: true as const, message: 'Crawler deleted' };
      },
    );

    app.post(
      '/web-crawler/:id/test',
      { schema: { summary: "Whether the configuration's site can be crawled now: the address allowed, robots.txt read, the start page answering", params: CrawlerConfigIdParamSchema, response: { 200: CrawlerTestResponseSchema } } },
      async (request) => {
        const { config } = await ownedConfig(request, request.params.id);
        const url = config.websiteUrl;
        try {
          await deps.checkTarget(url);
          const robots = await deps.fetch({ url: `${new URL(url).origin}/robots.txt`, maxBytes: ROBOTS_MAX_BYTES });
          const policy = robotsPolicyFromFetch({ status: robots.status, body: Buffer.from(robots.body).toString('utf8') });
          const page = await deps.fetch({ url, maxBytes: crawlerLimits.pageMaxBytes });
          const allowed = policy.isAllowed(url);
          const ok = allowed && page.status >= 200 && page.status < 300;
          const message = !allowed ? "The site's robots.txt does not allow crawling it." : ok ? 'The site can be crawled.' : `The page answered ${page.status}.`;
          return { success: ok, message, url, status_code: page.status, robots_allowed: allowed };
        } catch (error) {
          if (!(error instanceof OutboundError)) throw error;
          return { success: false, message: error.message, url, status_code: null, robots_allowed: null };
        }
      },
    );

    app.post(
      '/web-crawler/smart-crawl-preview',
      {
        schema: {
          summary: 'Scan a website (depth 2 by default) and answer the pages found, scored, with the sales pages apart; waits for the scan (up to 600 s)',
          body: SmartCrawlPreviewBodySchema,
          response: { 200: SmartCrawlPreviewResponseSchema },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const body = request.body;
        const row = body.assistant_id === undefined ? undefined : (await ownedAssistant(request, body.assistant_id)).row;
        await deps.checkTarget(body.website_url).catch(refused);
        const crawlId = `preview_${hexId()}`;
        await releaseSupersededPreviews(account.id, crawlId, row?.id ?? null, body.website_url);
        await requestCrawl(request, {
          crawlId,
          assistantId: row?.id ?? null,
          ownerId: account.id,
          mode: 'preview',
          startUrl: body.website_url,
          maxPages: await maxPagesFor(account.id, body.max_pages ?? crawlerLimits.preview.maxPages),
          maxDepth: body.max_depth,
          deleteOrphanedPages: false,
          configId: null,
          keywords: [...body.keywords, ...body.focus_areas].slice(0, 50),
        });
        const crawl = await finishedCrawl(request, account.id, crawlId, deps.previewTimeoutMs ?? crawlerLimits.previewTimeoutMs);
        if (crawl?.status === 'error') throw new ApiError(422, crawl.message ?? crawlerMessages.noPages);
        if (crawl?.status !== 'completed') throw new ApiError(504, 'The website scan is taking longer than expected. Please try again later.');
        const files = await previewFiles(account.id, await crawler.keptPages(crawlId));
        if (files.length === 0) throw new ApiError(422, crawlerMessages.noPages);
        const sales = files.filter((file) => file.is_sales_page);
        return {
          success: true,
          message: crawl.message ?? `Found ${files.length} pages.`,
          preview_id: crawlId,
          assistant_id: row?.numeric_id ?? null,
          files_found: crawl.pagesDiscovered,
          processed_files: crawl.pagesFetched + crawl.pagesFailed + crawl.pagesSkipped,
          total_files: files.length,
          preview_files: files,
          crawl_result: { base_url: body.website_url, total_files: files.length, preview_files: files, sales_pages: sales, sales_pages_count: sales.length },
        };
      },
    );

    app.post(
      '/web-crawler/smart-crawl-commit',
      { schema: { summary: "Add the chosen pages of a preview to the assistant's knowledge (one file per page, cited by its address)", body: SmartCrawlCommitBodySchema, response: { 200: CommitResponseSchema } } },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.body.assistant_id);
        return commit(request, row, await crawler.crawl(account.id, request.body.preview_id), request.body.selected_filenames);
      },
    );

    app.post(
      '/web-crawler/commit-files',
      { schema: { summary: "Add the chosen pages (by file name) of the configuration's latest finished crawl or preview to its assistant", body: CommitFilesBodySchema, response: { 200: CommitResponseSchema } } },
      async (request) => {
        const { account, config } = await ownedConfig(request, request.body.crawler_config_id);
        const row = await assistants.findById(config.assistantId);
        if (!row || row.owner_id !== account.id) throw new ApiError(404, messages.assistantNotFound);
        return commit(request, row, await crawler.latestFinishedCrawlOfAssistant(account.id, row.id), request.body.selected_file_names);
      },
    );

    app.post(
      '/web-crawler/fetch-single-url',
      { schema: { summary: 'Add Missing Page: fetch one page and add it to the latest preview of its site (or `preview_id`)', body: FetchSingleUrlBodySchema, response: { 200: FetchSingleUrlResponseSchema } } },
      async (request) => {
        const account = requireAccount(request);
        const body = request.body;
        await deps.checkTarget(body.url).catch(refused);
        const site = (() => {
          try {
            return new URL(body.base_url || body.url).host;
          } catch {
            return new URL(body.url).host;
          }
        })();
        const preview = body.preview_id ? await crawler.crawl(account.id, body.preview_id) : await crawler.latestPreviewOfSite(account.id, site);
        if (!preview || preview.mode !== 'preview') throw new ApiError(body.preview_id ? 404 : 409, body.preview_id ? crawlerMessages.previewNotFound : crawlerMessages.scanFirst);
        const assistant = preview.assistantId ? await assistants.findById(preview.assistantId) : undefined;
        let page;
        try {
          page = await fetchSinglePage(
            { fetch: deps.fetch, blobs: deps.blobs },
            { url: body.url, crawlId: preview.crawlId, holder: crawlBlobHolder(preview.crawlId), keywords: assistantKeywords([assistant?.description, assistant?.instructions]) },
          );
        } catch (error) {
          if (error instanceof SinglePageError || error instanceof OutboundError) throw new ApiError(422, error.message);
          throw error;
        }
        const added = await run(request, crawlDecider, streamIds.crawl(preview.crawlId), { type: 'AddManualPage', data: { ownerId: account.id, discovered: page.discovered, fetched: page.fetched, scored: page.scored } });
        // The read model's page when it has applied the add; else (marked pending) the page as the events recorded it.
        const record = (added.readModelsCurrent ? await crawler.keptPage(preview.crawlId, page.fetched.key) : undefined) ?? addedPageRecord(page);
        const text = record.kind === 'html' ? page.text : await pageText(account.id, record);
        return { message: crawlerMessages.pageAdded, preview_id: preview.crawlId, file_data: toPreviewFile(record, text) };
      },
    );

    app.get(
      '/assistants/:id/crawler-pages',
      { schema: { summary: 'The crawled pages the assistant holds (File Selection presets its choice with them)', params: NumericIdParamSchema, response: { 200: CrawlerPagesResponseSchema } } },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        const pages = await crawler.urlsOfAssistant(account.id, row.id);
        return { selected_pages: pages.map((page) => ({ url: page.sourceUrl, filename: page.filename, title: page.pageTitle, is_enabled: page.isEnabled, is_sales_page: page.isSalesPage })) };
      },
    );
  };
