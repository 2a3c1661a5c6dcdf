import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { crawlerQueries } from '@kesher/projections/crawler/crawler.queries';
import { createDocumentTextReader, type KnowledgeReads } from '../knowledge/index.js';
import type { CrawlerSettingsRoutesDeps } from '../api/routes/crawler-settings/crawler-settings.routes.js';
import type { CrawlProgressDeps } from '../api/routes/web-crawler/crawl-progress.ws.js';
import type { CrawlerRoutesDeps } from '../api/routes/web-crawler/web-crawler.routes.js';
import {
  type CrawlLimits,
  createCrawledPagesService,
  createCrawlerService,
  createSiteKnowledge,
} from '../crawler/index.js';
import type { Authenticator } from '../identity/index.js';
import {
  createBrowserLikeTransport,
  createOutboundFetch,
  createOutboundTargetCheck,
  parseOutboundAllowlist,
} from '../outbound/index.js';
import { createStorageLimit, type PlanAllowances, type PlanOf } from '../plans/index.js';
import { livePlanBook } from '../billing/index.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import type { AwaitReadModels, ReadModelProgress } from '../platform/projections/read-model-progress.js';
import { createCrawlerWorker } from '../workers/crawler/crawler.worker.js';
import { createRecrawlScheduler } from '../workers/crawler/recrawl-scheduler.js';
import type { Platform } from './compose-platform.js';

/** The guarded fetch as configured (OUTBOUND_ALLOWLIST), with the HTTP client it closes with. */
function outbound(platform: Platform) {
  const { transport, close } = createBrowserLikeTransport();
  const allowlist = parseOutboundAllowlist(platform.config.OUTBOUND_ALLOWLIST);
  return {
    fetch: createOutboundFetch({ transport, allowlist }),
    checkTarget: createOutboundTargetCheck({ allowlist }),
    close,
  };
}

/** Crawled pages count towards the owner's knowledge storage like uploads. */
const storageOf = (platform: Platform, knowledge: Pick<KnowledgeReads, 'storageUsed'>, planOf: PlanOf) => ({
  used: (ownerId: string) => knowledge.storageUsed(ownerId),
  // The plan's max_storage_mb (KNOWLEDGE_STORAGE_LIMIT_BYTES overrides the free plan's).
  limitOf: createStorageLimit({ planOf, config: platform.config }),
});

/** The crawler's use cases (crawler/service) behind its routes, and its progress socket, for composeApi. */
export function composeCrawlerApi(wiring: {
  platform: Platform;
  blobs: BlobStore;
  knowledge: Pick<KnowledgeReads, 'fileText' | 'storageUsed'>;
  readModels: ReadModelProgress;
  awaitReadModels: AwaitReadModels;
  allowances: Pick<PlanAllowances, 'reserveFile' | 'releaseFiles'>;
  planOf: PlanOf;
  authenticator: Authenticator;
  clock: () => Date;
}): {
  deps: { routes: CrawlerRoutesDeps; settings: CrawlerSettingsRoutesDeps; progress: CrawlProgressDeps };
  close: () => void;
} {
  const { platform } = wiring;
  const guarded = outbound(platform);
  const storage = storageOf(platform, wiring.knowledge, wiring.planOf);
  const site = createSiteKnowledge({
    handle: platform.handle,
    eventStore: platform.eventStore,
    blobs: wiring.blobs,
    allowances: wiring.allowances,
    storage,
  });
  // The preview's PDFs and DOCX files are read in a sandbox of their own (one thread, started on the first document).
  const documents = createDocumentTextReader({
    maxMemoryMb: platform.config.EXTRACT_MAX_MEMORY_MB,
    timeLimitMs: platform.config.EXTRACT_TIME_LIMIT_SECONDS && platform.config.EXTRACT_TIME_LIMIT_SECONDS * 1000,
  });
  const common = { readDb: platform.sql, awaitReadModels: wiring.awaitReadModels, clock: wiring.clock };
  return {
    deps: {
      routes: {
        crawler: createCrawlerService({
          ...common,
          handle: platform.handle,
          blobs: wiring.blobs,
          site,
          readModels: wiring.readModels,
          checkTarget: guarded.checkTarget,
          fetch: guarded.fetch,
          planOf: wiring.planOf,
          storage,
          documentText: documents.text,
        }),
        clock: wiring.clock,
      },
      settings: {
        pages: createCrawledPagesService({
          readDb: platform.sql,
          site,
          fileText: (ownerId, fileId) => wiring.knowledge.fileText(ownerId, fileId),
          awaitReadModels: wiring.awaitReadModels,
        }),
        clock: wiring.clock,
      },
      progress: {
        readDb: platform.sql,
        readModels: wiring.readModels,
        authenticator: wiring.authenticator,
        clock: wiring.clock,
      },
    },
    close: () => {
      guarded.close();
      void documents.close();
    },
  };
}

/** The crawler worker and the recrawl scheduler, for composeWorkers. */
export function composeCrawlerWorkers(wiring: {
  platform: Platform;
  blobs: BlobStore;
  knowledge: Pick<KnowledgeReads, 'storageUsed'>;
  allowances: Pick<PlanAllowances, 'reserveFile' | 'releaseFiles'>;
  groupId: string;
  limits?: Partial<CrawlLimits>;
  /** Off: scheduled recrawls are left to another process (tests drive `scheduler.tick`). */
  scheduler?: boolean;
}) {
  const { platform } = wiring;
  const guarded = outbound(platform);
  const assistants = assistantQueries(platform.sql);
  const crawler = crawlerQueries(platform.sql);
  const worker = createCrawlerWorker({
    bus: platform.bus,
    eventStore: platform.eventStore,
    blobs: wiring.blobs,
    fetch: guarded.fetch,
    site: createSiteKnowledge({
      handle: platform.handle,
      eventStore: platform.eventStore,
      blobs: wiring.blobs,
      allowances: wiring.allowances,
      storage: storageOf(platform, wiring.knowledge, livePlanBook(platform)),
    }),
    findAssistant: async (assistantId) => {
      const row = await assistants.findById(assistantId);
      return row && { description: row.description, instructions: row.instructions };
    },
    revalidationHints: (assistantId) => crawler.system.revalidationHints(assistantId),
    groupId: wiring.groupId,
    concurrency: platform.config.CRAWL_CONCURRENCY,
    limits: wiring.limits,
    onError: (error) => platform.log.error({ err: error }, 'crawler failed'),
  });
  const scheduler = createRecrawlScheduler({
    handle: platform.handle,
    eventStore: platform.eventStore,
    dueConfigs: (now) => crawler.system.dueConfigs(now),
    planOf: livePlanBook(platform),
    intervalMs: wiring.scheduler === false ? 0 : platform.config.RECRAWL_CHECK_INTERVAL_MS,
    onError: (error) => platform.log.error({ err: error }, 'recrawl scheduler failed'),
  });
  return {
    worker,
    scheduler,
    /** Sales Mode: the assistant's crawled sales pages (the ai-runner gives them to the answer providers). */
    salesPages: (assistantId: string) => crawler.system.salesPages(assistantId),
    async start() {
      await worker.start();
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await worker.stop();
      guarded.close();
    },
  };
}
