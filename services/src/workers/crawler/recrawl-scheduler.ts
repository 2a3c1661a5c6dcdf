import { crawlerMessages, streamIds } from '@kesher/contracts';
import { featureAllowed, type PlanOf } from '../../plans/index.js';
import { crawlDecider } from '../../domain/crawl/crawl.decider.js';
import { crawlerSiteDecider } from '../../domain/crawl/crawler-site.decider.js';
import { aggregateStream } from '../../platform/commands/aggregate-stream.js';
import type { CommandHandler } from '../../platform/commands/command-handler.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { crawlerSwitchedOff, followCrawlerSwitch } from './crawler-switch.js';

/** A configuration whose next crawl is due (the crawler read model: `next_crawl_at` has passed). */
export interface DueCrawl {
  configId: string;
  assistantId: string;
  ownerId: string;
  nextCrawlAt: string;
}

export interface RecrawlSchedulerDeps {
  handle: CommandHandler;
  eventStore: EventStore;
  dueConfigs: (now: Date) => Promise<DueCrawl[]>;
  /** The owner's plan now: a recrawl runs only while it includes scheduled recrawl. */
  planOf: PlanOf;
  clock?: () => Date;
  /** How often to look for due crawls (default one minute); 0: only when `tick` is called. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

/** The recrawl a configuration gets for one due time: every scheduler asking for it names the same crawl. */
export const scheduledCrawlId = (configId: string, dueAt: string) => `recrawl-${configId}-${Date.parse(dueAt)}`;

/**
 * Scheduled recrawls (crawl_interval 4h … 1w). Each due configuration gets one recrawl: a crawl of exactly
 * the pages the assistant holds, with conditional requests (ETag, Last-Modified) so that unchanged pages
 * answer 304 and nothing is read again; changed pages replace their file, pages gone from the site are
 * removed when `delete_orphaned_pages` is on. New pages of the site are not added by a recrawl: the owner
 * picks pages (or crawls again). The read model moves `next_crawl_at` when the crawl ends.
 *
 * Several workers processes may run this at once: the crawl id is derived from the configuration and
 * the due time, and a crawl is requested only once (the crawl decider), so a due time gives one crawl.
 */
export function createRecrawlScheduler(deps: RecrawlSchedulerDeps) {
  const clock = deps.clock ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<number> | undefined;

  async function schedule(due: DueCrawl): Promise<boolean> {
    const { state: site } = await aggregateStream(
      deps.eventStore,
      crawlerSiteDecider,
      streamIds.crawlerSite(due.assistantId),
    );
    // Deleted or replaced since the read model saw it.
    if (!site.config || site.config.configId !== due.configId || site.ownerId !== due.ownerId) return false;
    const context = {
      actor: { kind: 'system' as const, id: 'recrawl-scheduler' },
      correlationId: scheduledCrawlId(due.configId, due.nextCrawlAt),
      now: clock(),
    };
    // Switched off on the assistant's Edit page: no recrawl. The switch's follower pauses the schedule as the
    // owner saves; this holds too when the schedule came due again meanwhile (its interval saved while off).
    if (await crawlerSwitchedOff(deps.eventStore, due.assistantId)) {
      await followCrawlerSwitch(deps.eventStore, due.assistantId, context);
      return false;
    }
    // The plan is checked when the recrawl comes due, not only when it was saved: a plan that ended since
    // (cancelled, unpaid) pauses the schedule, and the owner reads why in the crawler's settings.
    if (!featureAllowed(await deps.planOf(due.ownerId), 'scheduled_recrawl')) {
      await deps.handle(
        crawlerSiteDecider,
        streamIds.crawlerSite(due.assistantId),
        {
          type: 'PauseSchedule',
          data: { configId: due.configId, reason: crawlerMessages.schedulePaused, dueAt: due.nextCrawlAt },
        },
        context,
      );
      return false;
    }
    const pages = [...site.pages.values()].filter((page) => page.enabled).length;
    const crawlId = scheduledCrawlId(due.configId, due.nextCrawlAt);
    const result = await deps.handle(
      crawlDecider,
      streamIds.crawl(crawlId),
      {
        type: 'RequestCrawl',
        data: {
          crawlId,
          assistantId: due.assistantId,
          ownerId: due.ownerId,
          mode: 'recrawl',
          startUrl: site.config.websiteUrl,
          // Every page held, and the start page if it is not one of them.
          maxPages: pages + 1,
          maxDepth: 0,
          deleteOrphanedPages: site.config.deleteOrphanedPages,
          configId: due.configId,
          keywords: [],
        },
      },
      { actor: { kind: 'system', id: 'recrawl-scheduler' }, correlationId: crawlId, now: clock() },
    );
    return result.events.length > 0;
  }

  /** Requests every due recrawl once; resolves with how many it requested. */
  async function tick(): Promise<number> {
    if (ticking) return ticking;
    ticking = (async () => {
      let requested = 0;
      for (const due of await deps.dueConfigs(clock())) {
        try {
          if (await schedule(due)) requested++;
        } catch (error) {
          deps.onError?.(error);
        }
      }
      return requested;
    })().finally(() => (ticking = undefined));
    return ticking;
  }

  return {
    tick,
    start() {
      const intervalMs = deps.intervalMs ?? 60_000;
      if (intervalMs <= 0) return;
      timer = setInterval(() => void tick().catch((error) => deps.onError?.(error)), intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await ticking?.catch(() => {});
    },
  };
}
