import type {
  CrawlCompleted,
  CrawlFailed,
  CrawlPagesLinked,
  CrawlRequested,
  PageDiscovered,
  PagesDiscovered,
  PageFetched,
  PageScored,
} from '@kesher/contracts';
import { crawlerMessages, crawlMessages } from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * One crawl of a website (stream `crawl-<crawlId>`): a preview, a crawl or a recrawl. The crawler worker
 * records what it finds as it goes, in batches; the decider keeps the record honest when a crawl is
 * carried on after a restart (a page in flight at the crash is fetched again, but recorded once) and
 * when a delivery arrives late (nothing is recorded on a finished crawl).
 *
 * `evolve` updates the sets and maps of the state it is given instead of copying them: a crawl's
 * stream holds thousands of page events, and copying per event would make every fold quadratic. Every
 * fold starts from a fresh `initialState()` (aggregateStream, the worker's cached writer, the tests), so
 * nobody holds an older state that could see the change.
 */
const crawlEventTypes = [
  'CrawlRequested',
  'CrawlRobotsRead',
  'PageDiscovered',
  'PagesDiscovered',
  'PageFetched',
  'PageFailed',
  'PageSkipped',
  'PageScored',
  'CrawlCompleted',
  'CrawlFailed',
  'CrawlPagesLinked',
] as const;
export type CrawlEvent = EventOf<(typeof crawlEventTypes)[number]>;
/** What the worker reports while the crawl runs. */
export type CrawlProgressEvent = EventOf<
  'CrawlRobotsRead' | 'PageDiscovered' | 'PagesDiscovered' | 'PageFetched' | 'PageFailed' | 'PageSkipped'
>;

/** Each address of a PagesDiscovered, as the one-address PageDiscovered of older crawls has it. */
export const discoveredPages = (data: PagesDiscovered): PageDiscovered[] =>
  data.pages.map((page) => ({ crawlId: data.crawlId, fromUrl: data.fromUrl, ...page }));

export type CrawlStatus = 'none' | 'running' | 'completed' | 'failed' | 'linked';

export interface CrawlState {
  status: CrawlStatus;
  request: CrawlRequested | null;
  /** Keys discovered, in order (a Map keeps the entries a resume needs). */
  discovered: Map<string, PageDiscovered>;
  /** Kept pages by key: the first record of each wins. */
  fetched: Map<string, PageFetched>;
  /** Keys that failed or were skipped, with the reason (a recrawl's orphans are pages gone: not found, now refused). */
  settled: Map<string, { outcome: 'failed' | 'skipped'; reason: string }>;
  scores: Map<string, PageScored>;
  completed: CrawlCompleted | null;
  failed: CrawlFailed | null;
  linked: CrawlPagesLinked | null;
}

export type CrawlCommand =
  | { type: 'RequestCrawl'; data: CrawlRequested }
  | { type: 'RecordCrawlProgress'; data: { events: readonly CrawlProgressEvent[] } }
  | { type: 'ScorePages'; data: { scores: readonly PageScored[] } }
  | { type: 'CompleteCrawl'; data: CrawlCompleted }
  | { type: 'FailCrawl'; data: CrawlFailed }
  | { type: 'RecordPagesLinked'; data: CrawlPagesLinked }
  /** Add Missing Page: the owner adds one page to a finished preview. */
  | {
      type: 'AddManualPage';
      data: { ownerId: string; discovered: PageDiscovered; fetched: PageFetched; scored: PageScored };
    };

export const crawlNotFound = () => new DomainError('not_found', crawlerMessages.crawlNotFound);

export const isFinished = (status: CrawlStatus) => status === 'completed' || status === 'failed' || status === 'linked';

export const crawlDecider: Decider<CrawlState, CrawlCommand, CrawlEvent> = {
  eventTypes: crawlEventTypes,
  initialState: () => ({
    status: 'none',
    request: null,
    discovered: new Map(),
    fetched: new Map(),
    settled: new Map(),
    scores: new Map(),
    completed: null,
    failed: null,
    linked: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'CrawlRequested':
        return { ...state, status: 'running', request: event.data };
      case 'PageDiscovered':
        if (!state.discovered.has(event.data.key)) state.discovered.set(event.data.key, event.data);
        return state;
      case 'PagesDiscovered':
        for (const page of discoveredPages(event.data))
          if (!state.discovered.has(page.key)) state.discovered.set(page.key, page);
        return state;
      case 'PageFetched':
        if (!state.fetched.has(event.data.key)) state.fetched.set(event.data.key, event.data);
        return state;
      case 'PageFailed':
        if (!state.settled.has(event.data.key))
          state.settled.set(event.data.key, { outcome: 'failed', reason: event.data.reason });
        return state;
      case 'PageSkipped':
        if (!state.settled.has(event.data.key))
          state.settled.set(event.data.key, { outcome: 'skipped', reason: event.data.reason });
        return state;
      case 'PageScored':
        state.scores.set(event.data.key, event.data);
        return state;
      case 'CrawlCompleted':
        return { ...state, status: 'completed', completed: event.data };
      case 'CrawlFailed':
        return { ...state, status: 'failed', failed: event.data };
      case 'CrawlPagesLinked':
        return { ...state, status: 'linked', linked: event.data };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RequestCrawl':
        // The same request again (a scheduler that asked twice, a retried route) is the same crawl.
        if (state.status !== 'none') {
          if (state.request?.crawlId === command.data.crawlId) return [];
          throw new DomainError('conflict', crawlMessages.alreadyRequested);
        }
        return [{ type: 'CrawlRequested', data: command.data }];

      case 'RecordCrawlProgress': {
        if (state.status !== 'running') return [];
        // Within the batch too: a key is recorded once, its first outcome wins.
        const discovered = new Set<string>();
        const done = new Set<string>();
        const isDone = (key: string) => state.fetched.has(key) || state.settled.has(key) || done.has(key);
        const out: CrawlEvent[] = [];
        for (const event of command.data.events) {
          switch (event.type) {
            case 'CrawlRobotsRead':
              out.push(event);
              break;
            case 'PageDiscovered':
              if (state.discovered.has(event.data.key) || discovered.has(event.data.key)) break;
              discovered.add(event.data.key);
              out.push(event);
              break;
            case 'PagesDiscovered': {
              const pages = event.data.pages.filter((page) => {
                if (state.discovered.has(page.key) || discovered.has(page.key)) return false;
                discovered.add(page.key);
                return true;
              });
              if (pages.length > 0) out.push({ type: 'PagesDiscovered', data: { ...event.data, pages } });
              break;
            }
            case 'PageFetched':
            case 'PageFailed':
            case 'PageSkipped':
              if (isDone(event.data.key)) break;
              done.add(event.data.key);
              out.push(event);
              break;
          }
        }
        return out;
      }

      case 'ScorePages':
        if (state.status !== 'running') return [];
        return command.data.scores
          .filter(
            (score, index, all) =>
              state.fetched.has(score.key) &&
              !state.scores.has(score.key) &&
              all.findIndex((s) => s.key === score.key) === index,
          )
          .map((data) => ({ type: 'PageScored' as const, data }));

      case 'CompleteCrawl':
        return state.status === 'running' ? [{ type: 'CrawlCompleted', data: command.data }] : [];

      case 'FailCrawl':
        return state.status === 'running' ? [{ type: 'CrawlFailed', data: command.data }] : [];

      case 'RecordPagesLinked':
        // Only a crawl that adds its pages to the assistant (not a preview), once it finished finding them.
        return state.status === 'completed' && state.request?.mode !== 'preview'
          ? [{ type: 'CrawlPagesLinked', data: command.data }]
          : [];

      case 'AddManualPage': {
        const { ownerId, discovered, fetched, scored } = command.data;
        if (state.status === 'none' || state.request?.ownerId !== ownerId) throw crawlNotFound();
        if (state.request.mode !== 'preview') throw new DomainError('conflict', crawlMessages.previewOnly);
        if (!isFinished(state.status)) throw new DomainError('conflict', crawlerMessages.previewNotReady);
        if (state.fetched.has(fetched.key)) return [];
        return [
          ...(state.discovered.has(discovered.key) ? [] : [{ type: 'PageDiscovered' as const, data: discovered }]),
          { type: 'PageFetched', data: fetched },
          { type: 'PageScored', data: scored },
        ];
      }
    }
  },
};
