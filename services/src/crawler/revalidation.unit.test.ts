import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserLikeTransport } from '../outbound/browser-like.transport.js';
import { parseOutboundAllowlist } from '../outbound/outbound-allowlist.js';
import { createOutboundFetch } from '../outbound/outbound-fetch.js';
import { planRevalidation, readSitemapLastmods, REVALIDATE_AT_LEAST_EVERY_MS } from './revalidation.js';
import { startLocalSite, type LocalSite } from './testing/local-site.js';

const now = new Date('2026-06-15T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const page = (key: string, sitemapLastmod: string | null, lastCrawledAt: string | null) => ({
  key,
  url: key,
  sitemapLastmod,
  lastCrawledAt,
});

describe('which pages a scheduled recrawl asks for', () => {
  it('leaves alone a page whose sitemap date has not moved since it was fetched this week; asks for every other', () => {
    const lastmods = new Map([
      ['https://s.example/same', '2026-01-01'],
      ['https://s.example/moved', '2026-06-14'],
      ['https://s.example/stale', '2026-01-01'],
      ['https://s.example/unknown-fetch', '2026-01-01'],
    ]);
    const plan = planRevalidation({
      pages: [
        page('https://s.example/same', '2026-01-01', ago(3600_000)),
        page('https://s.example/moved', '2026-01-01', ago(3600_000)),
        // Not asked for in over a week: asked for, whatever the sitemap says (a site's dates may lie).
        page('https://s.example/stale', '2026-01-01', ago(REVALIDATE_AT_LEAST_EVERY_MS + 1)),
        page('https://s.example/unknown-fetch', '2026-01-01', null),
        // Gone from the sitemap: asked for (a 404 makes it an orphan).
        page('https://s.example/dropped', '2026-01-01', ago(1000)),
        // Never had a date: asked for.
        page('https://s.example/undated', null, ago(1000)),
      ],
      lastmods,
      now,
    });
    expect(plan.unchanged.map((p) => p.key)).toEqual(['https://s.example/same']);
    expect(plan.fetch.map((p) => [p.key, p.lastmod])).toEqual([
      ['https://s.example/moved', '2026-06-14'],
      ['https://s.example/stale', '2026-01-01'],
      ['https://s.example/unknown-fetch', '2026-01-01'],
      ['https://s.example/dropped', null],
      ['https://s.example/undated', null],
    ]);
  });
});

describe("a site's sitemap dates", () => {
  const { transport, close } = createBrowserLikeTransport();
  const fetch = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('127.0.0.1') });
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite({ posts: 5 });
  });
  afterAll(async () => {
    close();
    await site.close();
  });

  it("are read through robots.txt's sitemap index (gzip included), by page key, and follow the site's changes", async () => {
    const before = await readSitemapLastmods({ fetch }, `${site.origin}/`);
    expect(before.get(`${site.origin}/blog/post-2`)).toBe('2025-01-01');
    // Pages listed without a date are not in the map.
    expect(before.has(`${site.origin}/pricing`)).toBe(false);
    site.change('/blog/post-2');
    site.remove('/blog/post-4');
    const after = await readSitemapLastmods({ fetch }, `${site.origin}/`);
    expect(after.get(`${site.origin}/blog/post-2`)).toBe('2025-01-02');
    expect(after.has(`${site.origin}/blog/post-4`)).toBe(false);
    expect(after.get(`${site.origin}/blog/post-1`)).toBe('2025-01-01');
  });

  it('are none for an address the guard refuses (nothing throws: every page is then asked for)', async () => {
    const refusing = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('') });
    expect((await readSitemapLastmods({ fetch: refusing }, `${site.origin}/`)).size).toBe(0);
  });
});
