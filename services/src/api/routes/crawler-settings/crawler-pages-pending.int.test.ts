import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENCY_HEADER } from '../../command-runner.js';
import { startLocalSite, type LocalSite } from '../../../crawler/testing/local-site.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { waitUntil } from '../../../testing/processes.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const postgres = await postgresAvailability();

/**
 * Crawled pages changed while the crawler read model is behind (its table locked, so the real projector
 * cannot apply the write and the read-your-writes wait runs out): turning a page off answers it off, and
 * Add Missing Page answers the page it added — not the read model's stale row, not a 500 — marked
 * `Kesher-Consistency: pending`.
 */
describe.skipIf(!postgres.available)(
  `crawled pages while the read model is behind${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let site: LocalSite;
    beforeAll(async () => {
      site = await startLocalSite({ posts: 2, hebrewPosts: 0 });
      h = await createApiHarness({
        settleReads: false,
        env: { OUTBOUND_ALLOWLIST: '127.0.0.1', RECRAWL_CHECK_INTERVAL_MS: '0' },
      });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await site?.close();
    });

    async function hold(table: string) {
      const client = new pg.Client({ connectionString: h.dbUrl });
      await client.connect();
      await client.query('BEGIN');
      // EXCLUSIVE: the projector cannot write the table; reads go on.
      await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
      return async () => {
        await client.query('COMMIT');
        await client.end();
      };
    }

    it('answers a page turned off, and a page added to a preview, marked pending', { timeout: 180_000 }, async () => {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Crumb', description: 'Bakery', instructions: 'Be kind' },
      });
      const assistantId = created.json().assistant_id as number;

      // A crawl adds the site's pages to the assistant.
      const crawl = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/',
        headers: auth,
        payload: { assistant_id: assistantId, website_url: `${site.origin}/`, crawl_interval: 'none', max_pages: 3 },
      });
      expect(crawl.statusCode, crawl.body).toBe(200);
      const urls = async () =>
        (await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${assistantId}/urls`, headers: auth })).json()
          .urls as Array<{ id: string; is_enabled: boolean }>;
      const page = (await waitUntil(async () => (await urls())[0], { timeoutMs: 90_000, what: 'a crawled page' }))!;
      expect(page.is_enabled).toBe(true);

      let release = await hold('crawled_urls');
      try {
        const toggled = await h.app.inject({
          method: 'POST',
          url: `/api/v1/crawler-settings/url/${page.id}/toggle`,
          headers: auth,
        });
        expect(toggled.statusCode, toggled.body).toBe(200);
        expect(toggled.headers[CONSISTENCY_HEADER]).toBe('pending');
        // The read model still says on.
        expect(toggled.json()).toMatchObject({
          id: page.id,
          is_enabled: false,
          openai_file_id: null,
          message: 'URL disabled',
        });
      } finally {
        await release();
      }
      await waitUntil(async () => (await urls()).find((url) => url.id === page.id)?.is_enabled === false, {
        what: 'the page off in the read model',
      });

      // A one-page preview of the home page, then the pricing page added to it by hand.
      const preview = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/smart-crawl-preview',
        headers: auth,
        payload: { website_url: `${site.origin}/`, max_pages: 1, max_depth: 0 },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const previewId = preview.json().preview_id as string;
      expect(
        (preview.json().preview_files as Array<{ url: string }>).map((file) => new URL(file.url).pathname),
      ).not.toContain('/pricing');
      release = await hold('crawl_pages');
      try {
        const added = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/fetch-single-url',
          headers: auth,
          payload: { url: `${site.origin}/pricing`, preview_id: previewId },
        });
        expect(added.statusCode, added.body).toBe(200);
        expect(added.headers[CONSISTENCY_HEADER]).toBe('pending');
        expect(added.json()).toMatchObject({ preview_id: previewId, file_data: { url: `${site.origin}/pricing` } });
        expect(added.json().file_data.content).toContain('$32');
      } finally {
        await release();
      }
    });
  },
);
