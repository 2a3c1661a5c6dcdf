import { crawlerLimits } from '@kesher/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCrawl } from './start-crawl';

describe('startCrawl', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the whole site from the create flow, and for the owner's chosen pages from the edit form", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        const data = {
          crawl_id: 'crawl_1',
          crawler_config_id: 'cfg_1',
          assistant_id: 7,
          website_url: 'https://crumb.example/',
          crawl_interval: '24h',
          status: 'starting',
        };
        return new Response(JSON.stringify({ success: true, message: 'Crawl started', data }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    expect(await startCrawl(7, 'https://crumb.example/', crawlerLimits.create)).toEqual({ crawlId: 'crawl_1' });
    expect(await startCrawl(7, 'https://crumb.example/', crawlerLimits.edit, 'held')).toEqual({ crawlId: 'crawl_1' });
    expect(bodies[0]).toMatchObject({
      assistant_id: 7,
      start_crawl: true,
      pages: 'site',
      max_pages: crawlerLimits.create.maxPages,
    });
    expect(bodies[1]).toMatchObject({
      assistant_id: 7,
      start_crawl: true,
      pages: 'held',
      max_pages: crawlerLimits.edit.maxPages,
    });
  });
});
