import type { CrawlRecord } from '@kesher/projections/crawler/crawler.queries';
import { CrawlProgressMessageSchema } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { crawlProgressMessage } from './crawler.mapper.js';

const crawl = (overrides: Partial<CrawlRecord> = {}): CrawlRecord => ({
  crawlId: 'crawl_1',
  assistantId: 'a1',
  ownerId: 'o1',
  configId: 'cfg_1',
  mode: 'crawl',
  startUrl: 'https://crumb.example/',
  maxPages: 50,
  maxDepth: 10,
  status: 'crawling',
  outcomeStatus: null,
  reason: null,
  message: null,
  pagesDiscovered: 40,
  pagesFetched: 10,
  pagesFailed: 2,
  pagesSkipped: 8,
  pagesLinked: 0,
  completion: null,
  totalBytes: 1000,
  currentUrl: 'https://crumb.example/about',
  requestedAt: '2026-06-15T10:00:00.000Z',
  finishedAt: null,
  assistantName: 'Crumb',
  ...overrides,
});
const now = new Date('2026-06-15T10:00:12.500Z');

describe('the crawl progress message (spec §3)', () => {
  it('counts what was processed and expects what is left of the pages found, within the page budget', () => {
    const message = crawlProgressMessage(crawl(), now);
    expect(CrawlProgressMessageSchema.parse(message)).toEqual({
      type: 'crawl_progress',
      crawl_id: 'crawl_1',
      status: 'crawling',
      pages_discovered: 40,
      pages_processed: 20,
      pages_linked_to_assistant: 0,
      // 10 of the 30 pages still expected, as the first 90 % (finding pages) of a crawl that adds them.
      progress_percentage: 30,
      current_url: 'https://crumb.example/about',
      estimated_total: 30,
      duration: 12.5,
      assistant_name: 'Crumb',
      message: null,
      completion: null,
    });
    expect(crawlProgressMessage(crawl({ pagesDiscovered: 500 }), now).estimated_total).toBe(50);
  });

  it('adding the pages is the last tenth; a preview only finds them; done is 100 with its duration fixed', () => {
    expect(
      crawlProgressMessage(crawl({ outcomeStatus: 'completed', pagesFetched: 20, pagesLinked: 10 }), now),
    ).toMatchObject({ progress_percentage: 94.5, message: 'Adding the pages to the assistant...' });
    expect(crawlProgressMessage(crawl({ mode: 'preview', pagesFetched: 30 }), now).progress_percentage).toBe(99);
    const done = crawlProgressMessage(
      crawl({
        status: 'completed',
        pagesLinked: 20,
        pagesFetched: 20,
        message: '20 pages added.',
        finishedAt: '2026-06-15T10:00:05.000Z',
      }),
      now,
    );
    expect(done).toMatchObject({
      status: 'completed',
      progress_percentage: 100,
      estimated_total: 20,
      duration: 5,
      message: '20 pages added.',
    });
  });

  it('a completed crawl carries what adding its pages did, as numbers a client can say in its own language', () => {
    const completion = {
      added: 12,
      unchanged: 3,
      removed: 1,
      not_added: 2,
      not_added_reason: 'Please select at least one file to upload',
    };
    const done = crawlProgressMessage(
      crawl({ status: 'completed', pagesLinked: 15, completion, finishedAt: '2026-06-15T10:00:05.000Z' }),
      now,
    );
    expect(CrawlProgressMessageSchema.parse(done).completion).toEqual(completion);
    // Until the pages are added (and for a crawl still running) there is nothing to report.
    expect(crawlProgressMessage(crawl({ completion }), now).completion).toBeNull();
  });

  it('a failed crawl is an error message with the reason', () => {
    expect(
      crawlProgressMessage(
        crawl({
          status: 'error',
          message: "The site's robots.txt does not allow crawling it.",
          finishedAt: '2026-06-15T10:00:01.000Z',
        }),
        now,
      ),
    ).toMatchObject({
      type: 'error',
      status: 'error',
      message: "The site's robots.txt does not allow crawling it.",
    });
    expect(
      crawlProgressMessage(
        crawl({ status: 'starting', pagesDiscovered: 0, pagesFetched: 0, pagesFailed: 0, pagesSkipped: 0 }),
        now,
      ),
    ).toMatchObject({ progress_percentage: 0, estimated_total: 0 });
  });
});
