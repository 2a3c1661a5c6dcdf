import type { CrawledPageCommitted, CrawlerSettings } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { crawlerSiteDecider, type CrawlerSiteEvent } from './crawler-site.decider.js';

const spec = deciderSpec(crawlerSiteDecider);
const settings: CrawlerSettings = {
  websiteUrl: 'https://bakery.example/',
  crawlInterval: '24h',
  maxPages: 2000,
  maxDepth: 10,
  deleteOrphanedPages: false,
};
const configured: CrawlerSiteEvent = {
  type: 'CrawlerConfigured',
  data: { assistantId: 'a1', ownerId: 'o1', configId: 'cfg1', ...settings },
};

const page = (overrides: Partial<CrawledPageCommitted> = {}): Omit<CrawledPageCommitted, 'replacedFileId'> => ({
  assistantId: 'a1',
  ownerId: 'o1',
  pageId: 'url_pricing',
  crawlId: 'c1',
  key: 'https://bakery.example/pricing',
  url: 'https://bakery.example/pricing',
  title: 'Pricing',
  kind: 'html',
  filename: 'bakery.example-pricing-1234abcd.html',
  characters: 100,
  bytes: 300,
  contentSha256: 'a'.repeat(64),
  fileId: 'file-1',
  fileSha256: 'd'.repeat(64),
  isSalesPage: true,
  salesCategory: 'pricing',
  relevanceScore: 0.8,
  etag: '"v1"',
  lastModified: null,
  ...overrides,
});
const committed = (
  overrides: Partial<CrawledPageCommitted> = {},
  replacedFileId: string | null = null,
): CrawlerSiteEvent => ({
  type: 'CrawledPageCommitted',
  data: { ...page(overrides), replacedFileId },
});

describe('crawler site decider', () => {
  it('configures the crawler once, then records only what changed', () => {
    spec
      .given([])
      .when({ type: 'ConfigureCrawler', data: { assistantId: 'a1', ownerId: 'o1', configId: 'cfg1', settings } })
      .then([configured]);
    spec
      .given([configured])
      .when({ type: 'ConfigureCrawler', data: { assistantId: 'a1', ownerId: 'o1', configId: 'cfg2', settings } })
      .then([]);
    spec
      .given([configured])
      .when({
        type: 'ConfigureCrawler',
        data: {
          assistantId: 'a1',
          ownerId: 'o1',
          configId: 'cfg2',
          settings: { ...settings, crawlInterval: '1w', deleteOrphanedPages: true },
        },
      })
      .then([
        {
          type: 'CrawlerConfigUpdated',
          data: { assistantId: 'a1', configId: 'cfg1', changes: { crawlInterval: '1w', deleteOrphanedPages: true } },
        },
      ]);
  });

  it("given one owner's configuration, when another owner configures the assistant's crawler, then it is not found", () => {
    spec
      .given([configured])
      .when({ type: 'ConfigureCrawler', data: { assistantId: 'a1', ownerId: 'o2', configId: 'cfg2', settings } })
      .thenThrows(DomainError);
  });

  it('pauses a due schedule once, keeps it paused through other changes, and resumes it when the interval is saved again', () => {
    const pause = {
      type: 'PauseSchedule' as const,
      data: { configId: 'cfg1', reason: 'Paused.', dueAt: '2026-01-01T04:00:00.000Z' },
    };
    const paused: CrawlerSiteEvent = { type: 'CrawlerSchedulePaused', data: { assistantId: 'a1', ...pause.data } };
    spec.given([configured]).when(pause).then([paused]);
    spec.given([configured, paused]).when(pause).then([]);
    spec
      .given([
        configured,
        {
          type: 'CrawlerConfigUpdated',
          data: { assistantId: 'a1', configId: 'cfg1', changes: { crawlInterval: 'none' } },
        },
      ])
      .when(pause)
      .then([]);
    spec.given([]).when(pause).then([]);
    spec
      .given([configured, paused])
      .when({ type: 'UpdateCrawlerConfig', data: { configId: 'cfg1', ownerId: 'o1', changes: { maxDepth: 3 } } })
      .then([
        { type: 'CrawlerConfigUpdated', data: { assistantId: 'a1', configId: 'cfg1', changes: { maxDepth: 3 } } },
      ]);
    spec
      .given([
        configured,
        paused,
        { type: 'CrawlerConfigUpdated', data: { assistantId: 'a1', configId: 'cfg1', changes: { maxDepth: 3 } } },
      ])
      .when({
        type: 'UpdateCrawlerConfig',
        data: { configId: 'cfg1', ownerId: 'o1', changes: { crawlInterval: '24h' } },
      })
      .then([
        {
          type: 'CrawlerConfigUpdated',
          data: { assistantId: 'a1', configId: 'cfg1', changes: { crawlInterval: '24h' } },
        },
      ]);
    // Running again, the same interval saved is no change.
    spec
      .given([
        configured,
        paused,
        {
          type: 'CrawlerConfigUpdated',
          data: { assistantId: 'a1', configId: 'cfg1', changes: { crawlInterval: '24h' } },
        },
      ])
      .when({
        type: 'UpdateCrawlerConfig',
        data: { configId: 'cfg1', ownerId: 'o1', changes: { crawlInterval: '24h' } },
      })
      .then([]);
  });

  it("updates and deletes only the owner's configuration, by its id", () => {
    spec
      .given([configured])
      .when({
        type: 'UpdateCrawlerConfig',
        data: { configId: 'cfg1', ownerId: 'o1', changes: { crawlInterval: '4h' } },
      })
      .then([
        {
          type: 'CrawlerConfigUpdated',
          data: { assistantId: 'a1', configId: 'cfg1', changes: { crawlInterval: '4h' } },
        },
      ]);
    spec
      .given([configured])
      .when({
        type: 'UpdateCrawlerConfig',
        data: { configId: 'cfg1', ownerId: 'o2', changes: { crawlInterval: '4h' } },
      })
      .thenThrows(DomainError, 'Crawler configuration not found.');
    spec
      .given([configured])
      .when({ type: 'UpdateCrawlerConfig', data: { configId: 'cfg9', ownerId: 'o1', changes: {} } })
      .thenThrows(DomainError);
    spec
      .given([configured])
      .when({ type: 'DeleteCrawlerConfig', data: { configId: 'cfg1', ownerId: 'o2' } })
      .thenThrows(DomainError);
    spec
      .given([configured])
      .when({ type: 'DeleteCrawlerConfig', data: { configId: 'cfg1', ownerId: 'o1' } })
      .then([{ type: 'CrawlerConfigDeleted', data: { assistantId: 'a1', configId: 'cfg1' } }]);
    spec
      .given([configured, { type: 'CrawlerConfigDeleted', data: { assistantId: 'a1', configId: 'cfg1' } }])
      .when({ type: 'DeleteCrawlerConfig', data: { configId: 'cfg1', ownerId: 'o1' } })
      .thenThrows(DomainError);
  });

  it('commits a new page, replaces a changed one, and leaves an unchanged, redelivered or disabled one alone', () => {
    spec
      .given([configured])
      .when({ type: 'CommitPages', data: { ownerId: 'o1', pages: [page()] } })
      .then([committed()]);
    // The same commit again (a redelivery): same file.
    spec
      .given([configured, committed()])
      .when({ type: 'CommitPages', data: { ownerId: 'o1', pages: [page()] } })
      .then([]);
    // A recrawl with the same content under another file: unchanged, nothing re-ingested.
    spec
      .given([configured, committed()])
      .when({ type: 'CommitPages', data: { ownerId: 'o1', pages: [page({ crawlId: 'c2', fileId: 'file-2' })] } })
      .then([]);
    // Changed content: a new file replacing the old one.
    const changed = page({ crawlId: 'c2', fileId: 'file-2', contentSha256: 'c'.repeat(64) });
    spec
      .given([configured, committed()])
      .when({ type: 'CommitPages', data: { ownerId: 'o1', pages: [changed] } })
      .then([{ type: 'CrawledPageCommitted', data: { ...changed, replacedFileId: 'file-1' } }]);
    // Turned off by the owner: not brought back by a crawl.
    const off: CrawlerSiteEvent = {
      type: 'CrawledPageToggled',
      data: { assistantId: 'a1', pageId: 'url_pricing', enabled: false, fileId: null, removedFileId: 'file-1' },
    };
    spec
      .given([configured, committed(), off])
      .when({ type: 'CommitPages', data: { ownerId: 'o1', pages: [changed] } })
      .then([]);
    spec
      .given([configured])
      .when({ type: 'CommitPages', data: { ownerId: 'o2', pages: [page()] } })
      .thenThrows(DomainError);
  });

  it('toggles a page: off deletes its file, on gives it a new one', () => {
    const off: CrawlerSiteEvent = {
      type: 'CrawledPageToggled',
      data: { assistantId: 'a1', pageId: 'url_pricing', enabled: false, fileId: null, removedFileId: 'file-1' },
    };
    spec
      .given([configured, committed()])
      .when({ type: 'TogglePage', data: { ownerId: 'o1', pageId: 'url_pricing', enabled: false, newFileId: 'file-x' } })
      .then([off]);
    spec
      .given([configured, committed(), off])
      .when({ type: 'TogglePage', data: { ownerId: 'o1', pageId: 'url_pricing', enabled: false, newFileId: 'file-x' } })
      .then([]);
    spec
      .given([configured, committed(), off])
      .when({ type: 'TogglePage', data: { ownerId: 'o1', pageId: 'url_pricing', enabled: true, newFileId: 'file-3' } })
      .then([
        {
          type: 'CrawledPageToggled',
          data: { assistantId: 'a1', pageId: 'url_pricing', enabled: true, fileId: 'file-3', removedFileId: null },
        },
      ]);
    spec
      .given([configured, committed()])
      .when({ type: 'TogglePage', data: { ownerId: 'o2', pageId: 'url_pricing', enabled: false, newFileId: 'x' } })
      .thenThrows(DomainError, 'URL not found.');
    spec
      .given([configured])
      .when({ type: 'TogglePage', data: { ownerId: 'o1', pageId: 'url_nope', enabled: false, newFileId: 'x' } })
      .thenThrows(DomainError);
  });

  it('deletes pages with their files; orphans only when there are some', () => {
    spec
      .given([
        configured,
        committed(),
        committed({ pageId: 'url_about', fileId: 'file-9', key: 'https://bakery.example/about' }),
      ])
      .when({
        type: 'DeletePages',
        data: { ownerId: 'o1', pageIds: ['url_pricing', 'url_about', 'url_unknown'], reason: 'owner' },
      })
      .then([
        {
          type: 'CrawledPagesDeleted',
          data: {
            assistantId: 'a1',
            pageIds: ['url_pricing', 'url_about'],
            fileIds: ['file-1', 'file-9'],
            reason: 'owner',
          },
        },
      ]);
    spec
      .given([configured, committed()])
      .when({ type: 'DeletePages', data: { ownerId: 'o1', pageIds: ['url_unknown'], reason: 'owner' } })
      .thenThrows(DomainError);
    spec
      .given([configured, committed()])
      .when({ type: 'DeletePages', data: { ownerId: 'o1', pageIds: ['url_unknown'], reason: 'orphaned' } })
      .then([]);
    spec
      .given([configured, committed()])
      .when({ type: 'DeletePages', data: { ownerId: 'o2', pageIds: ['url_pricing'], reason: 'owner' } })
      .thenThrows(DomainError);
  });
});
