import type { CrawlRequested, PageDiscovered, PageFetched } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { crawlDecider, type CrawlEvent } from './crawl.decider.js';

const spec = deciderSpec(crawlDecider);
const sha = 'b'.repeat(64);

const request = (mode: CrawlRequested['mode'] = 'crawl'): CrawlRequested => ({
  crawlId: 'c1',
  assistantId: 'a1',
  ownerId: 'o1',
  mode,
  startUrl: 'https://bakery.example/',
  maxPages: 50,
  maxDepth: 5,
  deleteOrphanedPages: false,
  configId: mode === 'preview' ? null : 'cfg1',
  keywords: [],
});
const requested = (mode?: CrawlRequested['mode']): CrawlEvent => ({ type: 'CrawlRequested', data: request(mode) });
const discovered = (key: string, source: PageDiscovered['source'] = 'link'): CrawlEvent => ({
  type: 'PageDiscovered',
  data: { crawlId: 'c1', url: key, key, depth: 1, source, fromUrl: null },
});
const fetchedData = (key: string): PageFetched => ({
  crawlId: 'c1',
  url: key,
  finalUrl: key,
  key,
  depth: 1,
  status: 200,
  notModified: false,
  kind: 'html',
  title: 'Pricing',
  language: 'en',
  characters: 120,
  bytes: 120,
  truncated: false,
  note: null,
  contentSha256: sha,
  htmlSha256: sha,
  etag: null,
  lastModified: null,
  isSalesPage: true,
  salesCategory: 'pricing',
  detectionReason: 'prices',
  links: [],
});
const fetched = (key: string): CrawlEvent => ({ type: 'PageFetched', data: fetchedData(key) });
const failed = (key: string): CrawlEvent => ({
  type: 'PageFailed',
  data: {
    crawlId: 'c1',
    url: key,
    key,
    depth: 1,
    reason: 'not-found',
    message: 'The page was not found (404).',
    status: 404,
  },
});
const completedData = {
  crawlId: 'c1',
  status: 'completed' as const,
  reason: 'exhausted' as const,
  message: 'The crawl found 1 page.',
  pagesKept: 1,
  pagesFailed: 0,
  pagesSkipped: 0,
  pagesDiscovered: 1,
  totalBytes: 120,
  durationMs: 10,
};
const completed: CrawlEvent = { type: 'CrawlCompleted', data: completedData };
const linkedData = {
  crawlId: 'c1',
  assistantId: 'a1',
  linked: 1,
  unchanged: 0,
  removed: 0,
  notAdded: 0,
  message: '1 page added.',
};

describe('crawl decider', () => {
  it('records a request once; the same request again records nothing', () => {
    spec.given([]).when({ type: 'RequestCrawl', data: request() }).then([requested()]);
    spec.given([requested()]).when({ type: 'RequestCrawl', data: request() }).then([]);
    spec
      .given([requested()])
      .when({ type: 'RequestCrawl', data: { ...request(), crawlId: 'c2' } })
      .thenThrows(DomainError);
  });

  it('records each page once, the first outcome winning, within a batch and across batches (a resumed crawl refetches what was in flight)', () => {
    spec
      .given([requested(), discovered('https://bakery.example/a'), fetched('https://bakery.example/a')])
      .when({
        type: 'RecordCrawlProgress',
        data: {
          events: [
            discovered('https://bakery.example/a'),
            fetched('https://bakery.example/a'),
            discovered('https://bakery.example/b'),
            discovered('https://bakery.example/b'),
            failed('https://bakery.example/b'),
            fetched('https://bakery.example/b'),
          ] as never,
        },
      })
      .then([discovered('https://bakery.example/b'), failed('https://bakery.example/b')]);
  });

  it("records a page's links as one event, without the addresses already recorded (one-address events of older crawls included)", () => {
    const page = (key: string) => ({ url: key, key, depth: 1, source: 'link' as const, lastmod: null });
    const many = (...keys: string[]): CrawlEvent => ({
      type: 'PagesDiscovered',
      data: { crawlId: 'c1', fromUrl: 'https://bakery.example/', pages: keys.map(page) },
    });
    spec
      .given([requested(), discovered('https://bakery.example/a'), many('https://bakery.example/b')])
      .when({
        type: 'RecordCrawlProgress',
        data: {
          events: [
            many(
              'https://bakery.example/a',
              'https://bakery.example/c',
              'https://bakery.example/b',
              'https://bakery.example/c',
            ),
            many('https://bakery.example/c', 'https://bakery.example/d'),
          ] as never,
        },
      })
      .then([many('https://bakery.example/c'), many('https://bakery.example/d')]);
    spec
      .given([requested(), many('https://bakery.example/a')])
      .when({
        type: 'RecordCrawlProgress',
        data: { events: [discovered('https://bakery.example/a'), many('https://bakery.example/a')] as never },
      })
      .then([]);
  });

  it('records nothing on a crawl that is not running (finished, or never requested)', () => {
    spec
      .given([requested(), completed])
      .when({ type: 'RecordCrawlProgress', data: { events: [fetched('https://bakery.example/a')] as never } })
      .then([]);
    spec
      .given([])
      .when({ type: 'RecordCrawlProgress', data: { events: [fetched('https://bakery.example/a')] as never } })
      .then([]);
    spec.given([requested(), completed]).when({ type: 'CompleteCrawl', data: completedData }).then([]);
    spec
      .given([requested(), completed])
      .when({ type: 'FailCrawl', data: { crawlId: 'c1', reason: 'robots', message: 'no' } })
      .then([]);
  });

  it('scores kept pages once', () => {
    const score = { crawlId: 'c1', key: 'https://bakery.example/a', relevanceScore: 0.5, explanation: 'depth 1' };
    spec
      .given([requested(), fetched('https://bakery.example/a')])
      .when({
        type: 'ScorePages',
        data: { scores: [score, score, { ...score, key: 'https://bakery.example/unknown' }] },
      })
      .then([{ type: 'PageScored', data: score }]);
  });

  it('given a finished crawl, when its fetched pages are scored late, then nothing is recorded', () => {
    const score = { crawlId: 'c1', key: 'https://bakery.example/a', relevanceScore: 0.5, explanation: 'depth 1' };
    spec
      .given([requested(), fetched('https://bakery.example/a'), completed])
      .when({ type: 'ScorePages', data: { scores: [score] } })
      .then([]);
  });

  it('links the pages of a finished crawl once, never of a preview', () => {
    spec
      .given([requested(), completed])
      .when({ type: 'RecordPagesLinked', data: linkedData })
      .then([{ type: 'CrawlPagesLinked', data: linkedData }]);
    spec
      .given([requested(), completed, { type: 'CrawlPagesLinked', data: linkedData }])
      .when({ type: 'RecordPagesLinked', data: linkedData })
      .then([]);
    spec
      .given([requested('preview'), completed])
      .when({ type: 'RecordPagesLinked', data: linkedData })
      .then([]);
    spec.given([requested()]).when({ type: 'RecordPagesLinked', data: linkedData }).then([]);
  });

  it("adds a missing page to the owner's finished preview only", () => {
    const key = 'https://bakery.example/hidden';
    const manual = {
      ownerId: 'o1',
      discovered: { crawlId: 'c1', url: key, key, depth: 0, source: 'manual' as const, fromUrl: null },
      fetched: fetchedData(key),
      scored: { crawlId: 'c1', key, relevanceScore: 0.4, explanation: 'added by the owner' },
    };
    spec
      .given([requested('preview'), completed])
      .when({ type: 'AddManualPage', data: manual })
      .then([
        { type: 'PageDiscovered', data: manual.discovered },
        { type: 'PageFetched', data: manual.fetched },
        { type: 'PageScored', data: manual.scored },
      ]);
    spec
      .given([requested('preview'), completed, fetched(key)])
      .when({ type: 'AddManualPage', data: manual })
      .then([]);
    spec
      .given([requested('preview'), completed])
      .when({ type: 'AddManualPage', data: { ...manual, ownerId: 'o2' } })
      .thenThrows(DomainError, 'Crawl not found.');
    spec
      .given([requested('preview')])
      .when({ type: 'AddManualPage', data: manual })
      .thenThrows(DomainError, /still running/);
    spec
      .given([requested('crawl'), completed])
      .when({ type: 'AddManualPage', data: manual })
      .thenThrows(DomainError);
  });
});
