import {
  crawledPageFileName,
  PAGES_DISCOVERED_MAX,
  streamIds,
  type CrawlRequested,
  type RecordedEvent,
} from '@kesher/contracts';
import {
  assistantKeywords,
  type CommitCandidate,
  crawlBlobHolder,
  type CrawlLimits,
  type FrontierResume,
  type KnownPage,
  planRevalidation,
  readSitemapLastmods,
  runCrawl,
  type SiteKnowledge,
} from '../../crawler/index.js';
import type { OutboundFetch } from '../../outbound/index.js';
import { crawlDecider, type CrawlCommand, type CrawlEvent, type CrawlState } from '../../domain/crawl/crawl.decider.js';
import { crawlerSiteDecider, type CrawlerSiteState } from '../../domain/crawl/crawler-site.decider.js';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import type { Consumer, DeliveredMessage, MessageBus } from '../../platform/bus/message-bus.port.js';
import { aggregateStream, eventOf } from '../../platform/commands/aggregate-stream.js';
import { handleCommand, type CommandContext, type Loaded } from '../../platform/commands/command-handler.js';
import { DomainError } from '../../platform/commands/decider.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { fromMessage, topicFor } from '../../platform/bus/relayed-event.js';
import { createCrawlRecording } from './crawl-recording.js';
import { crawlerSwitchEventTypes, followCrawlerSwitch } from './crawler-switch.js';
import { scorePages } from './crawl-scoring.js';

/** What scoring needs of the assistant (port; the assistants read model at the root). */
export interface CrawlerAssistant {
  description: string;
  instructions: string;
}

export interface CrawlerWorkerDeps {
  bus: MessageBus;
  eventStore: EventStore;
  blobs: BlobStore;
  /** The SSRF-guarded fetch (OUTBOUND_ALLOWLIST). */
  fetch: OutboundFetch;
  site: Pick<SiteKnowledge, 'commitPages' | 'deletePages'>;
  findAssistant: (assistantId: string) => Promise<CrawlerAssistant | undefined>;
  /** A recrawl's hints (crawler read model): each held page's sitemap date and when it was last fetched. */
  revalidationHints: (
    assistantId: string,
  ) => Promise<ReadonlyMap<string, { sitemapLastmod: string | null; lastCrawledAt: string | null }>>;
  groupId?: string;
  /** Crawls run at once by this worker (default 4); one preview and one crawl per owner at a time. */
  concurrency?: number;
  /** Overrides of the runner's limits (politeness, concurrency per crawl). */
  limits?: Partial<CrawlLimits>;
  /** Events per checkpoint and the longest a checkpoint waits (defaults 50 and 250 ms). */
  checkpoint?: { events?: number; ms?: number };
  clock?: () => Date;
  onError?: (error: unknown) => void;
}

/**
 * What the crawler's subscription is handed: a crawl's request. The rest of a crawl's stream is its own
 * progress (about three events a page kept), which is for people — the progress socket reads it from the
 * crawler read model — and is skipped unread by the bus (issue 25 item 7).
 */
export const crawlerEventTypes: readonly string[] = ['CrawlRequested'];
/** What the owner reads when a crawl's message was parked (it failed, or killed its worker, every time). */
export const crawlGaveUp = 'The crawl could not be finished: it failed several times. Please try again later.';
const linkGaveUp =
  'The pages found could not all be added to the assistant: adding them failed several times. Please crawl again.';
export class CrawlInterrupted extends Error {
  constructor() {
    super('the crawler is stopping: the crawl carries on from its events at the next delivery');
    this.name = 'CrawlInterrupted';
  }
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_unused, i) => items.slice(i * size, (i + 1) * size));

/** Pages scored per append. */
const SCORE_CHUNK = 200;
/** Reasons a page of the assistant counts as gone from the site (an orphan), not merely unreachable now. */
const GONE_FAILURES = new Set(['not-found']);
const GONE_SKIPS = new Set(['robots', 'noindex', 'off-site-redirect', 'empty']);

/** Where a crawl carried on after a restart starts: its kept, settled and still pending pages. */
export function resumeFrom(state: CrawlState): FrontierResume | undefined {
  if (state.discovered.size === 0 && state.fetched.size === 0) return undefined;
  return {
    kept: [...state.fetched.values()].map((page) => ({ key: page.key, bytes: page.bytes })),
    settled: [...state.settled.keys()],
    pending: [...state.discovered.values()]
      .filter((entry) => !state.fetched.has(entry.key) && !state.settled.has(entry.key))
      .map((entry) => ({
        url: entry.url,
        key: entry.key,
        depth: entry.depth,
        source: entry.source === 'manual' ? 'link' : entry.source,
      })),
  };
}

/** The pages of the assistant this crawl shows to be gone from the site. */
export function orphanedPages(crawl: CrawlState, site: CrawlerSiteState): string[] {
  const request = crawl.request!;
  const exhausted = crawl.completed?.reason === 'exhausted' && request.mode === 'crawl';
  return [...site.pages.values()]
    .filter((page) => page.enabled)
    .filter((page) => {
      const settled = crawl.settled.get(page.key);
      if (settled)
        return settled.outcome === 'failed' ? GONE_FAILURES.has(settled.reason) : GONE_SKIPS.has(settled.reason);
      // A whole-site crawl that covered everything it could reach and never met the page: nothing links to it any more.
      return exhausted && !crawl.discovered.has(page.key) && !crawl.fetched.has(page.key);
    })
    .map((page) => page.pageId);
}

function linkedMessage(counts: {
  linked: number;
  unchanged: number;
  removed: number;
  notAdded: number;
  reason?: string;
}): string {
  const parts = [`${counts.linked} page${counts.linked === 1 ? '' : 's'} added to the assistant's knowledge`];
  if (counts.unchanged > 0) parts.push(`${counts.unchanged} unchanged`);
  if (counts.removed > 0) parts.push(`${counts.removed} removed (no longer on the site)`);
  let message = `${parts.join(', ')}.`;
  if (counts.notAdded > 0) message += ` ${counts.notAdded} not added${counts.reason ? `: ${counts.reason}` : '.'}`;
  return message;
}

/**
 * Crawls websites. It consumes `CrawlRequested` from the crawl topic (Kafka in production, the
 * in-process bus on `make start`), drives the crawl runner through the guarded fetch and records what it
 * finds on the crawl's stream as it goes; then scores the pages and records the outcome. A crawl or
 * recrawl of an assistant's site then adds its pages to the assistant's knowledge (site-knowledge.ts):
 * new and changed pages become files, unchanged ones are left alone, orphans go when the configuration
 * says so.
 *
 * A crawl survives its worker: the message is only acknowledged once the crawl is finished, so a worker
 * that dies (or stops) leaves it to the next delivery, which carries on from the recorded events — pages
 * already recorded are not fetched again, at most the last unrecorded batch is. A finished crawl
 * delivered again is skipped; a crawl whose pages were found but not yet added resumes at adding them.
 */
export function createCrawlerWorker(deps: CrawlerWorkerDeps) {
  const clock = deps.clock ?? (() => new Date());
  const running = new Set<AbortController>();
  let consumer: Consumer | undefined;
  let switchConsumer: Consumer | undefined;

  const requestIn = (message: Pick<DeliveredMessage, 'value'>) => eventOf(['CrawlRequested'], fromMessage(message));

  const contextFor = (trigger: RecordedEvent): CommandContext => ({
    actor: { kind: 'system', id: 'crawler' },
    correlationId: trigger.metadata.correlationId,
    causationId: trigger.metadata.eventId,
    now: clock(),
  });

  async function crawl(writer: HeldCrawl, trigger: RecordedEvent, request: CrawlRequested) {
    const decide = (command: CrawlCommand) => writer.decide(command, contextFor(trigger));
    const controller = new AbortController();
    running.add(controller);
    try {
      const assistant = request.assistantId ? await deps.findAssistant(request.assistantId) : undefined;
      if (request.assistantId && !assistant && request.mode !== 'preview') {
        await decide({
          type: 'FailCrawl',
          data: { crawlId: request.crawlId, reason: 'no-pages', message: 'The assistant no longer exists.' },
        });
        return;
      }
      let site: CrawlerSiteState | undefined;
      let known: Map<string, KnownPage> | undefined;
      const knownContent = new Map<string, string>();
      if (request.mode === 'recrawl' && request.assistantId) {
        site = (await aggregateStream(deps.eventStore, crawlerSiteDecider, streamIds.crawlerSite(request.assistantId)))
          .state;
        const pages = [...site.pages.values()].filter((page) => page.enabled);
        known = new Map(
          pages.map((page) => [page.key, { etag: page.etag, lastModified: page.lastModified, bytes: page.characters }]),
        );
        for (const page of pages) knownContent.set(page.key, page.contentSha256);
        if (pages.length === 0) {
          await completeEmpty(writer, trigger, request, 'There were no pages to refresh.');
          return;
        }
        // Which pages to ask for (those whose sitemap date moved, or not asked for in a week), recorded
        // first — with the ones left alone — so that a restart knows them too.
        if (writer.state.discovered.size === 0 && writer.state.settled.size === 0) {
          const hints = await deps.revalidationHints(request.assistantId);
          const plan = planRevalidation({
            pages: pages.map((page) => ({
              key: page.key,
              url: page.url,
              sitemapLastmod: hints.get(page.key)?.sitemapLastmod ?? null,
              lastCrawledAt: hints.get(page.key)?.lastCrawledAt ?? null,
            })),
            lastmods: await readSitemapLastmods({ fetch: deps.fetch, signal: controller.signal }, request.startUrl),
            now: clock(),
          });
          await decide({
            type: 'RecordCrawlProgress',
            data: {
              events: [
                ...chunks(plan.fetch, PAGES_DISCOVERED_MAX).map((pages) => ({
                  type: 'PagesDiscovered' as const,
                  data: {
                    crawlId: request.crawlId,
                    fromUrl: null,
                    pages: pages.map((page) => ({
                      url: page.url,
                      key: page.key,
                      depth: 0,
                      source: 'resume' as const,
                      lastmod: page.lastmod,
                    })),
                  },
                })),
                ...plan.unchanged.map((page) => ({
                  type: 'PageSkipped' as const,
                  data: {
                    crawlId: request.crawlId,
                    url: page.url,
                    key: page.key,
                    depth: 0,
                    reason: 'unchanged' as const,
                    detail: `the sitemap still dates it ${page.lastmod}`,
                  },
                })),
              ],
            },
          });
        }
        if (
          ![...writer.state.discovered.keys()].some(
            (key) => !writer.state.fetched.has(key) && !writer.state.settled.has(key),
          ) &&
          writer.state.fetched.size === 0
        ) {
          await completeEmpty(writer, trigger, request, 'Nothing on the site changed since the last crawl.');
          return;
        }
      }

      const recording = createCrawlRecording({
        crawlId: request.crawlId,
        blobs: deps.blobs,
        holder: crawlBlobHolder(request.crawlId),
        knownContent,
        append: async (events) => void (await decide({ type: 'RecordCrawlProgress', data: { events } })),
        batchEvents: deps.checkpoint?.events,
        batchMs: deps.checkpoint?.ms,
      });
      const resume = resumeFrom(writer.state);
      const outcome = await runCrawl(
        {
          fetch: deps.fetch,
          onEvent: (event) => recording.record(event),
          signal: controller.signal,
          limits: deps.limits,
          today: clock(),
        },
        {
          startUrl: request.startUrl,
          maxPages: request.maxPages,
          maxDepth: request.maxDepth,
          useSitemaps: request.mode !== 'recrawl',
          ...(known ? { known } : {}),
          ...(resume ? { resume } : {}),
        },
      );
      await recording.flush();
      if (controller.signal.aborted) throw new CrawlInterrupted();

      // A recrawl whose every page was gone or refused keeps nothing: that is its result (the orphans), not a failure.
      const nothingLeft = request.mode === 'recrawl' && outcome.status === 'failed' && outcome.reason === 'no-pages';
      if (outcome.status === 'failed' && !nothingLeft) {
        const reason = outcome.reason as Extract<CrawlEvent, { type: 'CrawlFailed' }>['data']['reason'];
        await decide({ type: 'FailCrawl', data: { crawlId: request.crawlId, reason, message: outcome.message } });
        return;
      }
      const state = writer.state;
      const keywords = assistantKeywords([assistant?.description, assistant?.instructions, ...request.keywords]);
      const scores = await scorePages({
        crawlId: request.crawlId,
        pages: [...state.fetched.values()],
        keywords,
        texts: recording.texts,
        readText: async (sha256) => (await deps.blobs.get(sha256))?.toString('utf8'),
      });
      for (let i = 0; i < scores.length; i += SCORE_CHUNK)
        await decide({ type: 'ScorePages', data: { scores: scores.slice(i, i + SCORE_CHUNK) } });
      const counts = [...state.settled.values()];
      await decide({
        type: 'CompleteCrawl',
        data: {
          crawlId: request.crawlId,
          status: outcome.status === 'stopped' ? 'stopped' : 'completed',
          reason: nothingLeft
            ? 'exhausted'
            : (outcome.reason as Extract<CrawlEvent, { type: 'CrawlCompleted' }>['data']['reason']),
          message: outcome.message,
          pagesKept: state.fetched.size,
          pagesFailed: counts.filter((settled) => settled.outcome === 'failed').length,
          pagesSkipped: counts.filter((settled) => settled.outcome === 'skipped').length,
          pagesDiscovered: state.discovered.size,
          totalBytes: [...state.fetched.values()].reduce((sum, page) => sum + page.bytes, 0),
          durationMs: Math.max(0, clock().getTime() - trigger.createdAt.getTime()),
        },
      });
    } finally {
      running.delete(controller);
    }
  }

  async function completeEmpty(writer: HeldCrawl, trigger: RecordedEvent, request: CrawlRequested, message: string) {
    await writer.decide(
      {
        type: 'CompleteCrawl',
        data: {
          crawlId: request.crawlId,
          status: 'completed',
          reason: 'exhausted',
          message,
          pagesKept: 0,
          pagesFailed: 0,
          pagesSkipped: 0,
          pagesDiscovered: 0,
          totalBytes: 0,
          durationMs: Math.max(0, clock().getTime() - trigger.createdAt.getTime()),
        },
      },
      contextFor(trigger),
    );
  }

  /** Adds a finished crawl's pages to the assistant (crawl: all of them; recrawl: those it holds), removes orphans. */
  async function link(writer: HeldCrawl, trigger: RecordedEvent, request: CrawlRequested) {
    const assistantId = request.assistantId!;
    const context = contextFor(trigger);
    const site = (await aggregateStream(deps.eventStore, crawlerSiteDecider, streamIds.crawlerSite(assistantId))).state;
    const held = new Map([...site.pages.values()].map((page) => [page.key, page]));
    const state = writer.state;
    const pages: CommitCandidate[] = [...state.fetched.values()]
      .filter((page) => request.mode !== 'recrawl' || held.get(page.key)?.enabled)
      .map((page) => ({
        key: page.key,
        url: page.url,
        title: page.title,
        kind: page.kind,
        characters: page.characters,
        contentSha256: page.contentSha256,
        htmlSha256: page.htmlSha256,
        filename: crawledPageFileName(page.key, page.kind),
        isSalesPage: page.isSalesPage,
        salesCategory: page.salesCategory,
        relevanceScore: state.scores.get(page.key)?.relevanceScore ?? null,
        etag: page.etag,
        lastModified: page.lastModified,
      }));
    let outcome;
    try {
      outcome = await deps.site.commitPages(context, {
        ownerId: request.ownerId,
        assistantId,
        crawlId: request.crawlId,
        pages,
      });
    } catch (error) {
      // The assistant was deleted meanwhile: nothing to add the pages to.
      if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
      outcome = {
        committed: [],
        unchanged: 0,
        notAdded: pages.map((page) => ({
          key: page.key,
          filename: page.filename,
          reason: 'The assistant no longer exists.',
        })),
        position: undefined,
      };
    }
    let removed = 0;
    if (request.deleteOrphanedPages) {
      const orphans = orphanedPages(state, site);
      if (orphans.length > 0)
        removed = (
          await deps.site.deletePages(context, {
            ownerId: request.ownerId,
            assistantId,
            pageIds: orphans,
            reason: 'orphaned',
          })
        ).deleted;
    }
    // Pages a recrawl did not ask for (their sitemap date had not moved) are unchanged too.
    const leftAlone = [...state.settled.values()].filter((settled) => settled.reason === 'unchanged').length;
    const counts = {
      linked: outcome.committed.length,
      unchanged: outcome.unchanged + leftAlone,
      removed,
      notAdded: outcome.notAdded.length,
    };
    await writer.decide(
      {
        type: 'RecordPagesLinked',
        data: {
          crawlId: request.crawlId,
          assistantId,
          ...counts,
          notAddedReason: outcome.notAdded[0]?.reason,
          message: linkedMessage({ ...counts, reason: outcome.notAdded[0]?.reason }),
        },
      },
      contextFor(trigger),
    );
    // What the crawl stored is now held by the pages that were added (their files); the rest is released.
    await deps.blobs.release(crawlBlobHolder(request.crawlId));
  }

  /**
   * A crawl's stream held between writes: a crawl records hundreds of batches, and reading its stream
   * before each would make recording it quadratic. Each write is decided on the state the last one left,
   * passed to the handler as `from`; only a conflict (a second worker handed the same crawl after a
   * rebalance) reads the stream again.
   */
  async function holdCrawl(crawlId: string) {
    const streamId = streamIds.crawl(crawlId);
    const loaded = await aggregateStream(deps.eventStore, crawlDecider, streamId);
    let held: Loaded<CrawlState> = { state: loaded.state, revision: loaded.revision };
    return {
      get state(): CrawlState {
        return held.state;
      },
      async decide(command: CrawlCommand, context: CommandContext): Promise<CrawlEvent[]> {
        const handled = await handleCommand(deps.eventStore, crawlDecider, streamId, command, context, { from: held });
        held = { state: handled.state, revision: handled.revision };
        return handled.events;
      },
    };
  }
  type HeldCrawl = Awaited<ReturnType<typeof holdCrawl>>;

  async function handleRequest(trigger: RecordedEvent, crawlId: string) {
    const writer = await holdCrawl(crawlId);
    const state = writer.state;
    // Not this deployment's crawl (topics are shared on a broker), or not requested after all.
    if (state.status === 'none' || !state.request) return;
    const request = state.request;
    if (state.status === 'running') await crawl(writer, trigger, request);
    if (writer.state.status === 'completed' && request.mode !== 'preview' && request.assistantId)
      await link(writer, trigger, request);
  }

  async function parked(trigger: RecordedEvent, crawlId: string) {
    const writer = await holdCrawl(crawlId);
    const state = writer.state;
    if (state.status === 'running')
      await writer.decide(
        { type: 'FailCrawl', data: { crawlId, reason: 'aborted', message: crawlGaveUp } },
        contextFor(trigger),
      );
    else if (state.status === 'completed' && state.request?.mode !== 'preview' && state.request?.assistantId) {
      await writer.decide(
        {
          type: 'RecordPagesLinked',
          data: {
            crawlId,
            assistantId: state.request.assistantId,
            linked: 0,
            unchanged: 0,
            removed: 0,
            notAdded: state.fetched.size,
            message: linkGaveUp,
          },
        },
        contextFor(trigger),
      );
    }
  }

  return {
    async start() {
      consumer = await deps.bus.consume({
        groupId: deps.groupId ?? 'crawler',
        topics: [topicFor(streamIds.crawl('x'))],
        // A crawl's own progress (thousands of events a crawl) goes to the same topic; it is skipped unread.
        eventTypes: crawlerEventTypes,
        concurrency: deps.concurrency ?? 4,
        // An owner's preview need not wait for their site's crawl, and no owner takes every slot.
        laneOf: (message) => {
          const request = requestIn(message);
          return request
            ? `owner:${request.data.ownerId}:${request.data.mode === 'preview' ? 'preview' : 'crawl'}`
            : message.key;
        },
        handler: async (message) => {
          const request = requestIn(message);
          if (request) await handleRequest(request, request.data.crawlId);
        },
        onParked: async (message) => {
          const request = requestIn(message);
          if (request) await parked(request, request.data.crawlId);
        },
      });
      // The assistant's crawler switch pauses and resumes its site's schedule (crawler-switch.ts).
      switchConsumer = await deps.bus.consume({
        groupId: `${deps.groupId ?? 'crawler'}-switch`,
        topics: [topicFor(streamIds.assistant('x'))],
        eventTypes: crawlerSwitchEventTypes,
        handler: async (message) => {
          const updated = eventOf(['AssistantUpdated'], fromMessage(message));
          if (updated?.data.changes.web_crawler)
            await followCrawlerSwitch(deps.eventStore, updated.data.assistantId, contextFor(updated));
        },
      });
    },
    /** Cancels the crawls under way (their messages stay unacknowledged and are carried on later), then stops consuming. */
    async stop() {
      for (const controller of running) controller.abort();
      await Promise.all([consumer?.stop(), switchConsumer?.stop()]);
    },
  };
}
