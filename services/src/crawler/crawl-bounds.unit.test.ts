import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserLikeTransport } from '../outbound/browser-like.transport.js';
import { parseOutboundAllowlist } from '../outbound/outbound-allowlist.js';
import { createOutboundFetch } from '../outbound/outbound-fetch.js';
import { resumeFromEvents } from './crawl-resume.js';
import { addressBudget, runCrawl, shallowestFirst, type CrawlEvent } from './crawl-runner.js';
import { startLinkFloodSite, type LinkFloodSite } from './testing/link-flood-site.js';

const { transport, close } = createBrowserLikeTransport();
const fetch = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('127.0.0.1') });
let site: LinkFloodSite;

beforeAll(async () => {
  site = await startLinkFloodSite({ linkPages: 5, linksPerPage: 10_000 });
});
afterAll(async () => {
  close();
  await site.close();
});

const pathOf = (url: string) => new URL(url).pathname;

describe('a crawl of pages holding 10,000 links each', () => {
  it(
    'records addresses in proportion to its page budget, not to the links, and follows the shallowest links of a page',
    { timeout: 60_000 },
    async () => {
      const events: CrawlEvent[] = [];
      const outcome = await runCrawl(
        { fetch, onEvent: (event) => void events.push(event), limits: { maxLinksPerPage: 500 } },
        { startUrl: `${site.origin}/`, maxPages: 50, maxDepth: 5 },
      );

      expect(outcome).toMatchObject({ status: 'completed', reason: 'page-limit' });
      const discovered = events.filter((event) => event.type === 'discovered');
      const recorded =
        discovered.length + events.filter((event) => event.type === 'skipped' || event.type === 'failed').length;
      expect(recorded).toBeLessThanOrEqual(addressBudget(50));
      // The start page's 10,000 links: the link pages (one segment) come before the items (two), whatever their order on the page.
      const fromStart = discovered
        .filter((event) => event.from === `${site.origin}/`)
        .map((event) => pathOf(event.entry.url));
      expect(fromStart.length).toBeLessThanOrEqual(500);
      expect(fromStart.slice(0, 4)).toEqual(site.linkPagePaths.slice(1));
      // Each kept page keeps only the links the crawl knows (its part of the link graph), never the 10,000.
      const pages = events.flatMap((event) => (event.type === 'fetched' ? [event.page] : []));
      expect(pages).toHaveLength(50);
      expect(Math.max(...pages.map((page) => page.links.length))).toBeLessThanOrEqual(500);
    },
  );

  it(
    'says it stopped at its address budget when the addresses it left could have been pages, and a resume keeps within the budget',
    { timeout: 60_000 },
    async () => {
      const events: CrawlEvent[] = [];
      const limits = { maxLinksPerPage: 50, maxAddresses: 30 };
      const outcome = await runCrawl(
        { fetch, onEvent: (event) => void events.push(event), limits },
        { startUrl: `${site.origin}/`, maxPages: 200, maxDepth: 5 },
      );
      // Not `exhausted`: a whole-site crawl that says exhausted takes the pages it never met for gone from the site.
      expect(outcome).toMatchObject({
        status: 'completed',
        reason: 'link-limit',
        message: `The crawl followed its limit of 30 addresses and found ${outcome.stats.kept} pages.`,
      });
      expect(events.filter((event) => event.type === 'discovered')).toHaveLength(30);

      // Carried on from its events, the crawl has nothing left to record.
      const again: CrawlEvent[] = [];
      await runCrawl(
        { fetch, onEvent: (event) => void again.push(event), limits },
        { startUrl: `${site.origin}/`, maxPages: 200, maxDepth: 5, resume: resumeFromEvents(events) },
      );
      expect(again.filter((event) => event.type === 'discovered')).toHaveLength(0);
    },
  );
});

describe('shallowestFirst', () => {
  it('keeps every link of an ordinary page, in page order', () => {
    const links = ['https://a.test/blog/post-1', 'https://a.test/about', 'https://a.test/'].map((url) => ({ url }));
    expect(shallowestFirst(links, 3)).toEqual(links);
  });

  it('keeps the shallowest of a flood, handed back in page order', () => {
    const links = [
      'https://a.test/x/1',
      'https://a.test/pricing',
      'https://a.test/x/2',
      'https://a.test/',
      'https://a.test/x/3',
    ].map((url) => ({ url }));
    expect(shallowestFirst(links, 3).map((link) => link.url)).toEqual([
      'https://a.test/x/1',
      'https://a.test/pricing',
      'https://a.test/',
    ]);
  });
});
