import { randomUUID } from 'node:crypto';
import {
  crawlerLimits,
  crawlerMessages,
  messages,
  streamIds,
  type AllPosition,
  type CrawlerConfigDto,
  type CrawlRequested,
  type CommitResponse,
  type CrawlerTestResponse,
  type CreateCrawlerBody,
  type FetchSingleUrlBody,
  type FetchSingleUrlResponse,
  type KesherEvent,
  type PreviewJob,
  type SmartCrawlPreviewBody,
  type SmartCrawlPreviewResponse,
  type UpdateCrawlerBody,
} from '@kesher/contracts';
import { assistantQueries, type AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import { crawlerQueries, type CrawlPageRecord, type CrawlRecord } from '@kesher/projections/crawler/crawler.queries';
import { assistantDecider } from '../../domain/assistant/assistant.decider.js';
import { crawlDecider } from '../../domain/crawl/crawl.decider.js';
import { crawlerSiteDecider } from '../../domain/crawl/crawler-site.decider.js';
import type { DocumentTextInput } from '../../knowledge/index.js';
import { OutboundError, type OutboundFetch, type OutboundTargetCheck } from '../../outbound/index.js';
import { featureAllowed, type PlanOf, requireFeature, type StorageLimitOf } from '../../plans/index.js';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import type { CommandContext, CommandHandler } from '../../platform/commands/command-handler.js';
import { DomainError, type Decider } from '../../platform/commands/decider.js';
import type { ProgressBoard } from '../../platform/projections/progress.js';
import type { AwaitReadModels } from '../../platform/projections/read-model-progress.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { crawlBlobHolder } from '../page-identity.js';
import { assistantKeywords } from '../relevance-scorer.js';
import { robotsPolicyFromFetch, ROBOTS_MAX_BYTES } from '../robots-txt.js';
import { fetchSinglePage, SinglePageError } from '../single-page.js';
import { siteKnowledgeEventTypes, type SiteKnowledge } from '../site-knowledge.js';
import {
  addedPageRecord,
  crawlProgressMessage,
  decidedConfig,
  toCommitCandidate,
  toConfigDto,
  toPreviewFile,
} from './crawler.mapper.js';

export interface CrawlerServiceDeps {
  handle: CommandHandler;
  readDb: Sql;
  blobs: BlobStore;
  /** Commits, toggles and deletions of crawled pages (crawler/site-knowledge.ts). */
  site: SiteKnowledge;
  awaitReadModels: AwaitReadModels;
  /** The read models' progress: a waiting preview wakes when the crawler read model moves. */
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
  /** How long the waiting preview call waits for its crawl (spec: the client waits 600 s). */
  previewTimeoutMs?: number;
  /** A crawled document's text (PDF, DOCX), read in the extraction sandbox, for the preview to show. */
  documentText: (input: DocumentTextInput) => Promise<string>;
}

/**
 * Who asks, and how a write's read-your-writes wait running out is reported (the HTTP facade marks its
 * answer `Kesher-Consistency: pending`). The service answers from what the write decided in that case.
 */
export interface CrawlerCaller {
  ownerId: string;
  context: CommandContext;
  onPending: (position: AllPosition, eventTypes: readonly string[]) => void;
}

/** What the service refuses beyond the domain's kinds: the HTTP facade names their statuses. */
export class CrawlerRefusal extends Error {
  constructor(
    readonly kind: 'storage_full' | 'scan_timeout',
    message: string,
  ) {
    super(message);
    this.name = 'CrawlerRefusal';
  }
}

/** A finished preview nobody committed or replaced for this long is abandoned: its stored pages go. */
export const PREVIEW_RETENTION_MS = 24 * 3600_000;

const hexId = () => randomUUID().replaceAll('-', '');

/** An address the guard refuses, or a site that cannot be reached: the owner reads why (spec: the server's detail). */
function refused(error: unknown): never {
  if (error instanceof OutboundError) throw new DomainError('invalid', error.message);
  throw error;
}

const running = (crawl: CrawlRecord) => crawl.status === 'starting' || crawl.status === 'crawling';

/**
 * The Smart Web Crawler's use cases (spec §2, §7): configuring an assistant's site, crawling it, the
 * preview the owner picks pages from (a job followed over the progress socket), committing the picked
 * pages, Add Missing Page. The HTTP routes parse, call one of these, and reply; every rule, read and
 * write is here. Another owner's assistant, configuration or preview is `not_found`, exactly like a
 * missing one.
 */
export function createCrawlerService(deps: CrawlerServiceDeps) {
  const assistants = assistantQueries(deps.readDb);
  const crawler = crawlerQueries(deps.readDb);

  /** Runs a command; waits for the read models to apply it, or reports that the wait ran out. */
  async function run<State, Command, Event extends KesherEvent>(
    caller: CrawlerCaller,
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
  ) {
    const result = await deps.handle(decider, streamId, command, caller.context);
    if (!result.appended) return { ...result, readModelsCurrent: true };
    const eventTypes = result.events.map((event) => event.type);
    const applied = await deps.awaitReadModels(result.appended.position, eventTypes);
    if (!applied) caller.onPending(result.appended.position, eventTypes);
    return { ...result, readModelsCurrent: applied };
  }

  async function ownedAssistant(ownerId: string, numericId: number): Promise<AssistantRow> {
    const row = await assistants.findOwned(ownerId, numericId);
    if (!row) throw new DomainError('not_found', messages.assistantNotFound);
    return row;
  }

  async function ownedConfig(ownerId: string, configId: string) {
    const config = await crawler.config(ownerId, configId);
    if (!config) throw new DomainError('not_found', crawlerMessages.configNotFound);
    return config;
  }

  const maxPagesFor = async (ownerId: string, wanted: number) =>
    Math.max(1, Math.min(wanted, (await deps.planOf(ownerId)).limits.max_crawl_pages));

  async function requestCrawl(caller: CrawlerCaller, data: CrawlRequested) {
    // Every crawl stores records counted against the owner (crawler/crawl-storage.ts): a full storage
    // refuses the next one, as it refuses the next upload, rather than letting records pile up.
    if (deps.storage) {
      const [used, limit] = await Promise.all([deps.storage.used(data.ownerId), deps.storage.limitOf(data.ownerId)]);
      if (used >= limit.bytes) throw new CrawlerRefusal('storage_full', limit.message);
    }
    await run(caller, crawlDecider, streamIds.crawl(data.crawlId), { type: 'RequestCrawl', data });
  }

  /**
   * One crawler state in every screen (issue 22 item 9): the assistant's own crawler switch and address
   * follow its crawler configuration, so the Edit page shows a crawler set up from the dashboard as on,
   * with its address (and Sales Mode may be turned on), and a removed site as off.
   */
  async function followOnAssistant(
    caller: CrawlerCaller,
    row: AssistantRow,
    crawler: { enabled: boolean; websiteUrl?: string },
  ) {
    const current = row.web_crawler;
    const websiteUrl = crawler.websiteUrl ?? current.website_url;
    if (current.enabled === crawler.enabled && current.website_url === websiteUrl) return;
    await run(caller, assistantDecider, streamIds.assistant(row.id), {
      type: 'UpdateAssistant',
      data: {
        assistantId: row.id,
        ownerId: caller.ownerId,
        changes: { web_crawler: { ...current, enabled: crawler.enabled, website_url: websiteUrl } },
      },
    });
  }

  /** Waits until the crawl has finished, the time is up, or the caller gone away; the crawl's row then. */
  async function finishedCrawl(
    ownerId: string,
    crawlId: string,
    timeoutMs: number,
    gone: () => boolean,
  ): Promise<CrawlRecord | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const since = deps.readModels.position('crawler');
      const crawl = await crawler.crawl(ownerId, crawlId);
      if (!crawl || !running(crawl)) return crawl;
      const left = deadline - Date.now();
      if (left <= 0 || gone()) return crawl;
      await deps.readModels.waitForMove('crawler', since, Math.min(left, 5000));
    }
  }

  /** What the preview shows of a page: a web page's extracted text, or a document's text read as ingestion will read it. */
  async function pageText(
    ownerId: string,
    page: Pick<CrawlPageRecord, 'kind' | 'contentSha256' | 'filename'>,
  ): Promise<string> {
    if (!page.contentSha256) return '';
    const stored = await deps.blobs.get(page.contentSha256);
    if (!stored) return '';
    if (page.kind === 'html') return stored.toString('utf8');
    // A document that cannot be read shows no text, as before; committing it says why.
    return deps.documentText({ bytes: stored, kind: page.kind, filename: page.filename, ownerId }).catch(() => '');
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

  /** A finished preview's answer (spec §7's fields); a failed one is refused with the crawl's reason. */
  async function previewAnswer(
    ownerId: string,
    crawl: CrawlRecord,
    baseUrl: string,
  ): Promise<SmartCrawlPreviewResponse> {
    if (crawl.status === 'error') throw new DomainError('invalid', crawl.message ?? crawlerMessages.noPages);
    const pages = await crawler.keptPages(crawl.crawlId);
    const files = await Promise.all(pages.map(async (page) => toPreviewFile(page, await pageText(ownerId, page))));
    if (files.length === 0) throw new DomainError('invalid', crawlerMessages.noPages);
    const sales = files.filter((file) => file.is_sales_page);
    const assistant = crawl.assistantId ? await assistants.findById(crawl.assistantId) : undefined;
    return {
      success: true,
      message: crawl.message ?? `Found ${files.length} pages.`,
      preview_id: crawl.crawlId,
      assistant_id: assistant?.numeric_id ?? null,
      files_found: crawl.pagesDiscovered,
      processed_files: crawl.pagesFetched + crawl.pagesFailed + crawl.pagesSkipped,
      total_files: files.length,
      preview_files: files,
      crawl_result: {
        base_url: baseUrl,
        total_files: files.length,
        preview_files: files,
        sales_pages: sales,
        sales_pages_count: sales.length,
      },
    };
  }

  async function commit(
    caller: CrawlerCaller,
    row: AssistantRow,
    crawl: CrawlRecord | undefined,
    filenames: readonly string[],
  ): Promise<CommitResponse> {
    if (!crawl) throw new DomainError('not_found', crawlerMessages.previewNotFound);
    if (crawl.status === 'error') throw new DomainError('invalid', crawl.message ?? crawlerMessages.noPages);
    if (crawl.status !== 'completed' && !crawl.outcomeStatus)
      throw new DomainError('conflict', crawlerMessages.previewNotReady);
    const pages = await crawler.keptPagesNamed(crawl.crawlId, [...new Set(filenames)]);
    if (pages.length === 0) throw new DomainError('invalid', crawlerMessages.selectPages);
    const outcome = await deps.site.commitPages(caller.context, {
      ownerId: caller.ownerId,
      assistantId: row.id,
      crawlId: crawl.crawlId,
      pages: pages.map(toCommitCandidate),
    });
    // The answer is built from the outcome, not read back: a wait that ran out only marks it pending.
    if (outcome.position && !(await deps.awaitReadModels(outcome.position, siteKnowledgeEventTypes)))
      caller.onPending(outcome.position, siteKnowledgeEventTypes);
    // Every chosen page is now held by its file: the preview's copies go. A commit that left pages out
    // keeps them, so that the owner can make room and commit those again.
    if (crawl.mode === 'preview' && outcome.notAdded.length === 0)
      await deps.blobs.release(crawlBlobHolder(crawl.crawlId));
    const failed = outcome.notAdded.map((page) => ({ filename: page.filename, reason: page.reason }));
    let message = crawlerMessages.committed(outcome.committed.length);
    if (outcome.unchanged > 0) message += ` ${outcome.unchanged} unchanged.`;
    if (failed.length > 0) message += ` ${failed.length} not added: ${failed[0]!.reason}`;
    return {
      success: true,
      message,
      assistant_id: row.numeric_id,
      committed_files: outcome.committed.length,
      unchanged_files: outcome.unchanged,
      failed_files: failed,
    };
  }

  /** Starts a preview crawl of the site (depth 2 by default); its id is the job's and the progress socket's. */
  async function startPreview(caller: CrawlerCaller, body: SmartCrawlPreviewBody): Promise<{ previewId: string }> {
    const row = body.assistant_id === undefined ? undefined : await ownedAssistant(caller.ownerId, body.assistant_id);
    await deps.checkTarget(body.website_url).catch(refused);
    const crawlId = `preview_${hexId()}`;
    await releaseSupersededPreviews(caller.ownerId, crawlId, row?.id ?? null, body.website_url);
    await requestCrawl(caller, {
      crawlId,
      assistantId: row?.id ?? null,
      ownerId: caller.ownerId,
      mode: 'preview',
      startUrl: body.website_url,
      maxPages: await maxPagesFor(caller.ownerId, body.max_pages ?? crawlerLimits.preview.maxPages),
      maxDepth: body.max_depth,
      deleteOrphanedPages: false,
      configId: null,
      keywords: [...body.keywords, ...body.focus_areas].slice(0, 50),
    });
    return { previewId: crawlId };
  }

  async function ownedPreview(ownerId: string, previewId: string) {
    const crawl = await crawler.crawl(ownerId, previewId);
    if (!crawl || crawl.mode !== 'preview') throw new DomainError('not_found', crawlerMessages.previewNotFound);
    return crawl;
  }

  return {
    /**
     * Configures (or reconfigures) the assistant's crawler and, with `start_crawl`, crawls the whole site
     * and adds every page found. A crawl already under way is followed, not doubled.
     */
    async configure(caller: CrawlerCaller, body: CreateCrawlerBody) {
      const row = await ownedAssistant(caller.ownerId, body.assistant_id);
      await deps.checkTarget(body.website_url).catch(refused);
      const existing = await crawler.configOfAssistant(caller.ownerId, row.id);
      const configId = existing?.configId ?? `cfg_${hexId()}`;
      // Scheduled recrawl is a paid feature (spec part 2 §6 "auto-sync"). The create flow always sends the
      // spec's default interval (24h), so on a plan without it the crawler is saved without a schedule
      // (manual only) rather than refused: the owner still gets the crawl. Changing the interval (PUT) is refused.
      const crawlInterval =
        body.crawl_interval !== 'none' && !featureAllowed(await deps.planOf(caller.ownerId), 'scheduled_recrawl')
          ? 'none'
          : body.crawl_interval;
      const configured = await run(caller, crawlerSiteDecider, streamIds.crawlerSite(row.id), {
        type: 'ConfigureCrawler',
        data: {
          assistantId: row.id,
          ownerId: caller.ownerId,
          configId,
          settings: {
            websiteUrl: body.website_url,
            crawlInterval,
            maxPages: body.max_pages,
            maxDepth: body.max_depth,
            deleteOrphanedPages: body.delete_orphaned_pages,
          },
        },
      });
      await followOnAssistant(caller, row, { enabled: true, websiteUrl: body.website_url });
      // The configuration as decided: one saved just before whose read model row is not there yet keeps
      // its id (the decider changed it rather than create another), so the answer names that one.
      const savedConfigId = configured.state.config?.configId ?? configId;
      let crawlId: string | null = null;
      let status: 'starting' | 'crawling' | null = null;
      if (body.start_crawl) {
        // Whether a crawl is under way is the row read before the write (the write does not change it).
        if (
          existing?.lastCrawlId &&
          (existing.lastCrawlStatus === 'starting' || existing.lastCrawlStatus === 'crawling')
        ) {
          crawlId = existing.lastCrawlId;
          status = existing.lastCrawlStatus;
        } else {
          crawlId = `crawl_${hexId()}`;
          status = 'starting';
          // The owner's page choice stands (issue 22 item 9): asked to, and holding pages of this very site,
          // the crawl refreshes those pages only — as a scheduled recrawl does — instead of adding every page.
          const held =
            body.pages === 'held' && existing?.websiteUrl === body.website_url
              ? (await crawler.urlsOfAssistant(caller.ownerId, row.id)).filter((page) => page.isEnabled).length
              : 0;
          await requestCrawl(caller, {
            crawlId,
            assistantId: row.id,
            ownerId: caller.ownerId,
            mode: held > 0 ? 'recrawl' : 'crawl',
            startUrl: body.website_url,
            // A refresh: every page held, and the start page if it is not one of them; no link followed.
            maxPages: held > 0 ? held + 1 : await maxPagesFor(caller.ownerId, body.max_pages),
            maxDepth: held > 0 ? 0 : body.max_depth,
            deleteOrphanedPages: body.delete_orphaned_pages,
            configId: savedConfigId,
            keywords: [],
          });
        }
      }
      return {
        success: true as const,
        message: crawlId ? crawlerMessages.crawlStarted : 'Crawler configured',
        data: {
          crawl_id: crawlId,
          crawler_config_id: savedConfigId,
          assistant_id: row.numeric_id,
          website_url: body.website_url,
          crawl_interval: crawlInterval,
          status,
        },
      };
    },

    async configOfAssistant(ownerId: string, numericId: number): Promise<CrawlerConfigDto | null> {
      const row = await ownedAssistant(ownerId, numericId);
      const config = await crawler.configOfAssistant(ownerId, row.id);
      return config ? toConfigDto(config) : null;
    },

    async configsOfOwner(ownerId: string): Promise<CrawlerConfigDto[]> {
      return (await crawler.configsOfOwner(ownerId)).map(toConfigDto);
    },

    async update(caller: CrawlerCaller, configId: string, body: UpdateCrawlerBody): Promise<CrawlerConfigDto> {
      const config = await ownedConfig(caller.ownerId, configId);
      // A schedule needs a plan with scheduled recrawl: 403 with the gate's text, nothing saved.
      if (body.crawl_interval && body.crawl_interval !== 'none')
        await requireFeature(deps.planOf, caller.ownerId, 'scheduled_recrawl');
      if (body.website_url) await deps.checkTarget(body.website_url).catch(refused);
      const result = await run(caller, crawlerSiteDecider, streamIds.crawlerSite(config.assistantId), {
        type: 'UpdateCrawlerConfig',
        data: {
          configId: config.configId,
          ownerId: caller.ownerId,
          changes: {
            websiteUrl: body.website_url,
            crawlInterval: body.crawl_interval,
            maxPages: body.max_pages,
            maxDepth: body.max_depth,
            deleteOrphanedPages: body.delete_orphaned_pages,
          },
        },
      });
      if (body.website_url) {
        const row = await assistants.findById(config.assistantId);
        if (row) await followOnAssistant(caller, row, { enabled: true, websiteUrl: body.website_url });
      }
      const decided = result.state.config;
      // Behind (the answer is marked pending): the settings as decided, not the row the read model still has.
      const updated = result.readModelsCurrent
        ? await crawler.config(caller.ownerId, config.configId)
        : decided && decidedConfig(config, decided, deps.clock());
      if (!updated) throw new DomainError('not_found', crawlerMessages.configNotFound);
      return toConfigDto(updated);
    },

    /** Removes the site: its configuration and schedule go, the assistant's crawler is off; pages already added stay. */
    async remove(caller: CrawlerCaller, configId: string) {
      const config = await ownedConfig(caller.ownerId, configId);
      await run(caller, crawlerSiteDecider, streamIds.crawlerSite(config.assistantId), {
        type: 'DeleteCrawlerConfig',
        data: { configId: config.configId, ownerId: caller.ownerId },
      });
      const row = await assistants.findById(config.assistantId);
      if (row) await followOnAssistant(caller, row, { enabled: false });
    },

    /** Whether the configuration's site can be crawled now: the address allowed, robots.txt read, the start page answering. */
    async test(ownerId: string, configId: string): Promise<CrawlerTestResponse> {
      const url = (await ownedConfig(ownerId, configId)).websiteUrl;
      try {
        await deps.checkTarget(url);
        const robots = await deps.fetch({ url: `${new URL(url).origin}/robots.txt`, maxBytes: ROBOTS_MAX_BYTES });
        const policy = robotsPolicyFromFetch({
          status: robots.status,
          body: Buffer.from(robots.body).toString('utf8'),
        });
        const page = await deps.fetch({ url, maxBytes: crawlerLimits.pageMaxBytes });
        const allowed = policy.isAllowed(url);
        const ok = allowed && page.status >= 200 && page.status < 300;
        const message = !allowed
          ? "The site's robots.txt does not allow crawling it."
          : ok
            ? 'The site can be crawled.'
            : `The page answered ${page.status}.`;
        return { success: ok, message, url, status_code: page.status, robots_allowed: allowed };
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        return { success: false, message: error.message, url, status_code: null, robots_allowed: null };
      }
    },

    startPreview,

    /** The preview job: its progress while it runs, its answer once done; a failed scan is refused with the reason. */
    async previewJob(ownerId: string, previewId: string): Promise<PreviewJob> {
      const crawl = await ownedPreview(ownerId, previewId);
      if (running(crawl))
        return {
          status: crawl.status as 'starting' | 'crawling',
          preview_id: previewId,
          progress: crawlProgressMessage(crawl, deps.clock()),
        };
      return {
        status: 'completed',
        preview_id: previewId,
        result: await previewAnswer(ownerId, crawl, crawl.startUrl),
      };
    },

    /**
     * The spec's one call (POST /web-crawler/smart-crawl-preview): starts the job and waits for it, up to
     * the preview timeout or until the caller is gone. Kept for clients that follow the spec literally.
     */
    async previewAndWait(
      caller: CrawlerCaller,
      body: SmartCrawlPreviewBody,
      gone: () => boolean,
    ): Promise<SmartCrawlPreviewResponse> {
      const { previewId } = await startPreview(caller, body);
      const crawl = await finishedCrawl(
        caller.ownerId,
        previewId,
        deps.previewTimeoutMs ?? crawlerLimits.previewTimeoutMs,
        gone,
      );
      if (!crawl || running(crawl)) throw new CrawlerRefusal('scan_timeout', crawlerMessages.previewTimedOut);
      return previewAnswer(caller.ownerId, crawl, body.website_url);
    },

    async commitPreview(
      caller: CrawlerCaller,
      input: { assistantId: number; previewId: string; filenames: readonly string[] },
    ) {
      const row = await ownedAssistant(caller.ownerId, input.assistantId);
      return commit(caller, row, await crawler.crawl(caller.ownerId, input.previewId), input.filenames);
    },

    async commitLatest(caller: CrawlerCaller, input: { configId: string; filenames: readonly string[] }) {
      const config = await ownedConfig(caller.ownerId, input.configId);
      const row = await assistants.findById(config.assistantId);
      if (!row || row.owner_id !== caller.ownerId) throw new DomainError('not_found', messages.assistantNotFound);
      return commit(caller, row, await crawler.latestFinishedCrawlOfAssistant(caller.ownerId, row.id), input.filenames);
    },

    /**
     * Add Missing Page: one page fetched into the preview it joins (or the owner's latest of its site). A
     * page the site's robots.txt refuses is refused too, with the reason, as the crawl would refuse it.
     */
    async addMissingPage(caller: CrawlerCaller, body: FetchSingleUrlBody): Promise<FetchSingleUrlResponse> {
      await deps.checkTarget(body.url).catch(refused);
      const site = (() => {
        try {
          return new URL(body.base_url || body.url).host;
        } catch {
          return new URL(body.url).host;
        }
      })();
      const preview = body.preview_id
        ? await crawler.crawl(caller.ownerId, body.preview_id)
        : await crawler.latestPreviewOfSite(caller.ownerId, site);
      if (!preview || preview.mode !== 'preview')
        throw new DomainError(
          body.preview_id ? 'not_found' : 'conflict',
          body.preview_id ? crawlerMessages.previewNotFound : crawlerMessages.scanFirst,
        );
      const assistant = preview.assistantId ? await assistants.findById(preview.assistantId) : undefined;
      let page;
      try {
        const robots = await deps.fetch({ url: `${new URL(body.url).origin}/robots.txt`, maxBytes: ROBOTS_MAX_BYTES });
        const policy = robotsPolicyFromFetch({
          status: robots.status,
          body: Buffer.from(robots.body).toString('utf8'),
        });
        if (!policy.isAllowed(body.url)) throw new SinglePageError(crawlerMessages.robotsRefused);
        page = await fetchSinglePage(
          { fetch: deps.fetch, blobs: deps.blobs },
          {
            url: body.url,
            crawlId: preview.crawlId,
            holder: crawlBlobHolder(preview.crawlId),
            keywords: assistantKeywords([assistant?.description, assistant?.instructions]),
          },
        );
      } catch (error) {
        if (error instanceof SinglePageError || error instanceof OutboundError)
          throw new DomainError('invalid', error.message);
        throw error;
      }
      const added = await run(caller, crawlDecider, streamIds.crawl(preview.crawlId), {
        type: 'AddManualPage',
        data: { ownerId: caller.ownerId, discovered: page.discovered, fetched: page.fetched, scored: page.scored },
      });
      // The read model's page when it has applied the add; else (marked pending) the page as the events recorded it.
      const record =
        (added.readModelsCurrent ? await crawler.keptPage(preview.crawlId, page.fetched.key) : undefined) ??
        addedPageRecord(page);
      const text = record.kind === 'html' ? page.text : await pageText(caller.ownerId, record);
      return {
        message: crawlerMessages.pageAdded,
        preview_id: preview.crawlId,
        file_data: toPreviewFile(record, text),
      };
    },

    /**
     * A crawl's progress as the socket says it, asked once: a client holding a crawl id from an earlier
     * session learns whether it still runs, has ended, or is not the owner's (not_found) and can be forgotten.
     */
    async crawlProgress(ownerId: string, crawlId: string) {
      const crawl = await crawler.crawl(ownerId, crawlId);
      if (!crawl) throw new DomainError('not_found', crawlerMessages.crawlNotFound);
      return crawlProgressMessage(crawl, deps.clock());
    },

    /** The crawled pages the assistant holds (File Selection presets its choice with them). */
    async heldPages(ownerId: string, numericId: number) {
      const row = await ownedAssistant(ownerId, numericId);
      const pages = await crawler.urlsOfAssistant(ownerId, row.id);
      return {
        selected_pages: pages.map((page) => ({
          url: page.sourceUrl,
          filename: page.filename,
          title: page.pageTitle,
          is_enabled: page.isEnabled,
          is_sales_page: page.isSalesPage,
        })),
      };
    },
  };
}

export type CrawlerService = ReturnType<typeof createCrawlerService>;
