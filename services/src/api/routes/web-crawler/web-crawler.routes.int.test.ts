import {
  parseRedirect,
  plans,
  SmartCrawlPreviewResponseSchema,
  type CrawlProgressMessage,
  type MessageDto,
  type PreviewFileDto,
} from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSite, type LocalSite } from '../../../crawler/testing/local-site.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { kafkaAvailability } from '../../../testing/kafka.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const postgres = await postgresAvailability();
const kafka = postgres.available ? await kafkaAvailability() : postgres;
const within = { timeout: 60_000, interval: 50 };
/** The tests' local sites are on 127.0.0.1: only they are let through the SSRF guard. */
const env = { OUTBOUND_ALLOWLIST: '127.0.0.1', RECRAWL_CHECK_INTERVAL_MS: '0' };

type Owner = { authorization: string; accountId: string; id: number; externalId: string };

async function ownerWithAssistant(h: ApiHarness, body: Record<string, unknown> = {}): Promise<Owner> {
  const owner = await h.owner();
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/assistants/',
    headers: { authorization: owner.authorization },
    payload: {
      name: 'Crumb bakery',
      description: 'Sourdough bakery in Tel Aviv: bread, cakes, prices and delivery',
      instructions: 'Answer from the website',
      ...body,
    },
  });
  expect(created.statusCode).toBe(201);
  return { ...owner, id: created.json().assistant_id, externalId: created.json().openai_assistant_id };
}

/** Every progress message of a crawl until the socket closes (the crawl completed or failed). */
async function progressOf(
  h: ApiHarness,
  owner: Owner,
  crawlId: string,
  how: 'header' | 'query' = 'header',
): Promise<CrawlProgressMessage[]> {
  const received: CrawlProgressMessage[] = [];
  const socket = await h.app.injectWS(
    `/api/v1/ws/crawl-progress/${crawlId}${how === 'query' ? `?token=${encodeURIComponent(owner.authorization.slice(7))}` : ''}`,
    how === 'header' ? { headers: { authorization: owner.authorization } } : {},
    { onInit: (ws) => ws.on('message', (data: unknown) => received.push(JSON.parse(String(data)))) },
  );
  await new Promise<void>((resolve) =>
    socket.readyState === socket.CLOSED ? resolve() : socket.once('close', () => resolve()),
  );
  return received;
}

async function ask(h: ApiHarness, owner: Owner, content: string): Promise<MessageDto> {
  const auth = { authorization: owner.authorization };
  const threadId = (
    await h.app.inject({ method: 'POST', url: '/api/v1/threads/', headers: auth, payload: { assistant_id: owner.id } })
  ).json().thread_id as string;
  expect(
    (
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${threadId}/messages`,
        headers: auth,
        payload: { content },
      })
    ).statusCode,
  ).toBe(201);
  const runId = (
    await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${threadId}/runs`,
      headers: auth,
      payload: { assistant_id: owner.externalId },
    })
  ).json().run_id as string;
  await expect
    .poll(
      async () =>
        (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json().status,
      within,
    )
    .toBe('completed');
  const listed = (await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth })).json();
  const messages: MessageDto[] = Array.isArray(listed) ? listed : listed.data;
  return messages.find((message) => message.role === 'assistant')!;
}

const paid = new Set<string>();
const fileNamed = (files: PreviewFileDto[], path: string) =>
  files.find((file) => decodeURI(new URL(file.url).pathname) === path);

describe.skipIf(!postgres.available)(
  `the Smart Web Crawler on the in-process bus${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let site: LocalSite;

    beforeAll(async () => {
      site = await startLocalSite({ posts: 12, hebrewPosts: 3 });
      // Owners in `paid` are on a paid plan (scheduled recrawl needs one); the others on the free plan.
      h = await createApiHarness({ env, planOf: async (ownerId) => (paid.has(ownerId) ? plans.PRO : plans.FREE) });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await site?.close();
    });

    it(
      'previews a site, commits the chosen pages as knowledge files, and a sales-mode answer cites the page and refers the buyer to the price list',
      { timeout: 180_000 },
      async () => {
        const owner = await ownerWithAssistant(h, {
          sales_mode: { enabled: true, sales_prompt: '' },
          web_crawler: { enabled: true, web_crawler_config: { url: `${site.origin}/` } },
        });
        const auth = { authorization: owner.authorization };

        // Over a real connection: the preview answers when the scan is done (the request was read long before).
        const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
        const preview = await fetch(`${address}/api/v1/web-crawler/smart-crawl-preview`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            website_url: `${site.origin}/`,
            keywords: [],
            max_depth: 2,
            focus_areas: [],
            assistant_id: owner.id,
          }),
        });
        const body: unknown = await preview.json();
        expect(preview.status, JSON.stringify(body)).toBe(200);
        // The answer is the shape the spec's client reads.
        const result = SmartCrawlPreviewResponseSchema.parse(body);
        expect(result).toMatchObject({
          success: true,
          assistant_id: owner.id,
          crawl_result: { base_url: `${site.origin}/` },
        });
        expect(result.total_files).toBe(result.preview_files.length);
        expect(result.crawl_result.preview_files).toHaveLength(result.total_files);
        const pricing = fileNamed(result.preview_files, '/pricing')!;
        expect(pricing).toMatchObject({ is_sales_page: true, sales_category: 'pricing' });
        expect(pricing.content).toContain('Sourdough loaf');
        expect(pricing.relevance_score).toBeGreaterThan(0);
        expect(pricing.relevance_explanation).toMatch(/depth/);
        expect(result.crawl_result.sales_pages.map((file: PreviewFileDto) => file.url)).toContain(pricing.url);
        expect(result.crawl_result.sales_pages_count).toBe(result.crawl_result.sales_pages.length);
        // Sorted by relevance, best first.
        const scores = result.preview_files.map((file: PreviewFileDto) => file.relevance_score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));

        // The progress socket of a finished preview says so once, then closes; the token may come in the query (browsers).
        const progress = await progressOf(h, owner, result.preview_id, 'query');
        expect(progress.at(-1)).toMatchObject({
          type: 'crawl_progress',
          crawl_id: result.preview_id,
          status: 'completed',
          progress_percentage: 100,
          assistant_name: 'Crumb bakery',
        });

        // Add Missing Page: a page the depth-2 preview did not reach.
        const missing = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/fetch-single-url',
          headers: auth,
          payload: { url: `${site.origin}/blog/post-11`, base_url: `${site.origin}/` },
        });
        expect(missing.statusCode, missing.body).toBe(200);
        expect(missing.json()).toMatchObject({
          message: 'Page added.',
          preview_id: result.preview_id,
          file_data: { url: `${site.origin}/blog/post-11`, is_sales_page: false },
        });

        const about = fileNamed(result.preview_files, '/about')!;
        const commit = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-commit',
          headers: auth,
          payload: {
            preview_id: result.preview_id,
            assistant_id: owner.id,
            selected_filenames: [pricing.filename, about.filename, missing.json().file_data.filename],
          },
        });
        expect(commit.statusCode, commit.body).toBe(200);
        expect(commit.json()).toMatchObject({
          success: true,
          committed_files: 3,
          unchanged_files: 0,
          failed_files: [],
        });
        expect(commit.json().message).toBe("3 pages added to the assistant's knowledge.");

        // One knowledge file per page, its address as its source; read by the ingest worker.
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/files`, headers: auth }))
                .json()
                .map((file: { status: string }) => file.status),
            within,
          )
          .toEqual(['ready', 'ready', 'ready']);
        const files = (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/files`, headers: auth })).json();
        expect(files.map((file: { source_url: string }) => file.source_url).sort()).toEqual(
          [pricing.url, about.url, `${site.origin}/blog/post-11`].sort(),
        );

        // Committing the same pages again adds nothing: their content has not changed.
        const again = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-commit',
          headers: auth,
          payload: { preview_id: result.preview_id, assistant_id: owner.id, selected_filenames: [pricing.filename] },
        });
        expect(again.json()).toMatchObject({ committed_files: 0, unchanged_files: 1 });

        // Crawler Settings: the records, trained, and their figures.
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${owner.id}/urls`, headers: auth }))
                .json()
                .urls.map((url: { training_status: string }) => url.training_status),
            within,
          )
          .toEqual(['trained', 'trained', 'trained']);
        const listed = (
          await h.app.inject({
            url: `/api/v1/crawler-settings/assistant/${owner.id}/urls?search=pricing&skip=0&limit=20`,
            headers: auth,
          })
        ).json();
        expect(listed.total).toBe(1);
        const record = listed.urls[0];
        expect(record).toMatchObject({
          source_url: pricing.url,
          page_title: 'Pricing | Crumb & Co.',
          is_enabled: true,
          filename: pricing.filename,
          is_sales_page: true,
          sales_category: 'pricing',
        });
        expect(record.character_count).toBeGreaterThan(0);
        expect(record.file_size).toBeGreaterThan(0);
        expect(record.last_crawled_at).not.toBeNull();
        const stats = (
          await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${owner.id}/stats`, headers: auth })
        ).json();
        expect(stats).toMatchObject({ total_urls: 3, disabled_urls: 0 });
        expect(stats.total_characters).toBeGreaterThan(0);
        const content = (
          await h.app.inject({ url: `/api/v1/crawler-settings/url/${record.id}/content`, headers: auth })
        ).json();
        expect(content.content).toMatch(new RegExp(`^URL: ${pricing.url}`));
        expect(
          (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/crawler-pages`, headers: auth })).json()
            .selected_pages,
        ).toHaveLength(3);

        // The answer comes from the crawled page, cites it with its address, and in sales mode sends the buyer to it.
        const answer = await ask(h, owner, 'How much does a sourdough loaf cost?');
        const text = answer.content[0]!.text.value;
        expect(text).toContain('8.50');
        expect(answer.sources.map((source) => source.source_url)).toContain(pricing.url);
        expect(parseRedirect(text).redirectUrl).toBe(pricing.url);

        // Off: its file is deleted (no answers from it); on: a new file, read again.
        const off = await h.app.inject({
          method: 'POST',
          url: `/api/v1/crawler-settings/url/${record.id}/toggle`,
          headers: auth,
        });
        expect(off.json()).toMatchObject({ is_enabled: false, openai_file_id: null, message: 'URL disabled' });
        expect(
          (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/files`, headers: auth })).json(),
        ).toHaveLength(2);
        expect(
          (
            await h.app.inject({
              url: `/api/v1/crawler-settings/assistant/${owner.id}/urls?is_enabled=false`,
              headers: auth,
            })
          ).json().total,
        ).toBe(1);
        const on = await h.app.inject({
          method: 'PUT',
          url: `/api/v1/crawler-settings/url/${record.id}`,
          headers: auth,
          payload: { is_enabled: true },
        });
        expect(on.json()).toMatchObject({ is_enabled: true });
        expect(on.json().openai_file_id).not.toBe(record.openai_file_id);
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/crawler-settings/url/${record.id}/content`, headers: auth })).json()
                .content ?? '',
            within,
          )
          .toContain('Sourdough loaf');

        // Bulk delete: the record and its file go.
        const aboutRecord = (
          await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${owner.id}/urls?search=about`, headers: auth })
        ).json().urls[0];
        const deleted = await h.app.inject({
          method: 'DELETE',
          url: `/api/v1/crawler-settings/assistant/${owner.id}/urls`,
          headers: auth,
          payload: { url_ids: [aboutRecord.id] },
        });
        expect(deleted.json()).toEqual({ message: 'Deleted 1 URL(s).', deleted_count: 1 });
        expect(
          (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/files`, headers: auth }))
            .json()
            .map((file: { source_url: string }) => file.source_url),
        ).not.toContain(about.url);
      },
    );

    it(
      'crawls a whole site from the create flow, streams its progress, adds its pages, and a scheduled recrawl refreshes only what changed',
      { timeout: 180_000 },
      async () => {
        const owner = await ownerWithAssistant(h);
        paid.add(owner.accountId);
        const auth = { authorization: owner.authorization };
        const started = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/',
          headers: auth,
          payload: {
            assistant_id: owner.id,
            website_url: `${site.origin}/`,
            crawl_interval: '4h',
            max_pages: 2000,
            max_depth: 10,
            delete_orphaned_pages: true,
          },
        });
        expect(started.statusCode, started.body).toBe(200);
        const crawlId = started.json().data.crawl_id as string;
        expect(started.json()).toMatchObject({
          success: true,
          message: 'Crawl started',
          data: { assistant_id: owner.id, crawl_interval: '4h', status: 'starting' },
        });

        const progress = await progressOf(h, owner, crawlId);
        const last = progress.at(-1)!;
        expect(last).toMatchObject({
          type: 'crawl_progress',
          status: 'completed',
          progress_percentage: 100,
          assistant_name: 'Crumb bakery',
        });
        // The free plan crawls at most 50 pages.
        expect(last.pages_linked_to_assistant).toBeGreaterThan(10);
        expect(last.pages_linked_to_assistant).toBeLessThanOrEqual(50);
        expect(last.message).toMatch(/added to the assistant's knowledge/);
        for (const message of progress)
          expect(Object.keys(message).sort()).toEqual([
            'assistant_name',
            'completion',
            'crawl_id',
            'current_url',
            'duration',
            'estimated_total',
            'message',
            'pages_discovered',
            'pages_linked_to_assistant',
            'pages_processed',
            'progress_percentage',
            'status',
            'type',
          ]);
        // The completion's breakdown, for clients to say in their own language: every linked page added or unchanged.
        expect(last.completion).toMatchObject({ removed: 0 });
        expect(last.completion!.added + last.completion!.unchanged).toBe(last.pages_linked_to_assistant);

        const config = (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${owner.id}`, headers: auth })).json()
          .data;
        expect(config).toMatchObject({
          assistant_id: owner.id,
          website_url: `${site.origin}/`,
          crawl_interval: '4h',
          files_count: last.pages_linked_to_assistant,
          last_crawl_id: crawlId,
          last_crawl_status: 'completed',
        });
        expect(config.last_crawled).not.toBeNull();
        expect(Date.parse(config.next_crawl_at) - Date.parse(config.last_crawled)).toBe(4 * 3600_000);
        expect(
          (await h.app.inject({ url: '/api/v1/web-crawler/user/all', headers: auth }))
            .json()
            .data.map((c: { id: string }) => c.id),
        ).toEqual([config.id]);
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/files`, headers: auth }))
                .json()
                .every((file: { status: string }) => file.status !== 'pending'),
            within,
          )
          .toBe(true);
        const before = (
          await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${owner.id}/urls?limit=100`, headers: auth })
        ).json().urls as Array<{ id: string; source_url: string; openai_file_id: string }>;
        const fileOf = (path: string, urls = before) =>
          urls.find((url) => new URL(url.source_url).pathname === path)?.openai_file_id;

        // The site changes: one page, and one page is gone. The next scheduled recrawl is due.
        site.change('/faq');
        site.remove('/blog/post-3');
        const from = site.log.length;
        const requested = await h.workers.crawler.scheduler.tick();
        expect(requested).toBe(0); // not due yet
        const { createRecrawlScheduler } = await import('../../../workers/crawler/recrawl-scheduler.js');
        const { crawlerQueries } = await import('@kesher/projections/crawler/crawler.queries');
        const later = new Date(Date.parse(config.next_crawl_at) + 1000);
        const scheduler = createRecrawlScheduler({
          handle: h.platform.handle,
          eventStore: h.platform.eventStore,
          dueConfigs: (now) => crawlerQueries(h.platform.sql).system.dueConfigs(now),
          planOf: async () => plans.PRO,
          clock: () => later,
          intervalMs: 0,
        });
        expect(await scheduler.tick()).toBe(1);
        expect(await scheduler.tick()).toBe(0); // one recrawl per due time
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${owner.id}`, headers: auth })).json().data
                .last_crawl_id,
            within,
          )
          .toMatch(/^recrawl-/);
        const recrawlId = (
          await h.app.inject({ url: `/api/v1/web-crawler/assistant/${owner.id}`, headers: auth })
        ).json().data.last_crawl_id;
        const recrawl = (await progressOf(h, owner, recrawlId)).at(-1)!;
        expect(recrawl).toMatchObject({ status: 'completed' });
        expect(recrawl.message).toMatch(
          /^1 page added to the assistant's knowledge, \d+ unchanged, 1 removed \(no longer on the site\)\.$/,
        );

        // Unchanged pages answered 304 and were not read again; the changed page got a new file; the gone one is removed.
        const asked = site.log.slice(from);
        expect(asked.filter((entry) => entry.notModified).length).toBeGreaterThan(5);
        // A recrawl asks for robots.txt, the sitemaps and the pages the assistant holds, no new links; of those, not the
        // posts whose sitemap date has not moved since they were fetched (post-3 left the sitemap, so it is asked for).
        const held = new Set(
          before.map((url) => decodeURI(new URL(url.source_url).pathname) + new URL(url.source_url).search),
        );
        const paths = asked.map((entry) => entry.path);
        expect(
          paths.filter((path) => path !== '/robots.txt' && !path.startsWith('/sitemap') && !held.has(path)),
        ).toEqual([]);
        expect(paths.filter((path) => path.startsWith('/blog/post-'))).toEqual(['/blog/post-3']);
        expect(held.has('/blog/post-7')).toBe(true);
        const after = (
          await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${owner.id}/urls?limit=100`, headers: auth })
        ).json().urls;
        expect(after).toHaveLength(before.length - 1);
        expect(fileOf('/blog/post-3', after)).toBeUndefined();
        expect(fileOf('/faq', after)).not.toBe(fileOf('/faq'));
        expect(fileOf('/about', after)).toBe(fileOf('/about'));
        await expect
          .poll(
            async () =>
              (
                await h.app.inject({
                  url: `/api/v1/crawler-settings/url/${after.find((u: { source_url: string }) => u.source_url.endsWith('/faq')).id}/content`,
                  headers: auth,
                })
              ).json().content ?? '',
            within,
          )
          .toContain('revision 1');
      },
    );

    it('refuses private, loopback and metadata addresses with the reason, and an address that is not a web address', async () => {
      const owner = await ownerWithAssistant(h);
      const auth = { authorization: owner.authorization };
      for (const [url, detail] of [
        [
          'http://169.254.169.254/latest/meta-data',
          '169.254.169.254 is in a cloud metadata service and is never fetched.',
        ],
        ['http://10.0.0.7/', '10.0.0.7 is in a private network and is never fetched.'],
        ['http://[::1]:8080/', '::1 is in this machine (loopback) and is never fetched.'],
      ] as const) {
        for (const call of [
          { url: '/api/v1/web-crawler/', payload: { assistant_id: owner.id, website_url: url, crawl_interval: '24h' } },
          {
            url: '/api/v1/web-crawler/smart-crawl-preview',
            payload: { website_url: url, keywords: [], max_depth: 2, focus_areas: [] },
          },
          { url: '/api/v1/web-crawler/fetch-single-url', payload: { url, base_url: url } },
        ]) {
          const refused = await h.app.inject({ method: 'POST', headers: auth, ...call });
          expect([refused.statusCode, refused.json()], call.url).toMatchObject([422, { detail }]);
        }
      }
      const empty = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/',
        headers: auth,
        payload: { assistant_id: owner.id, website_url: '  ', crawl_interval: '24h' },
      });
      expect(empty.statusCode).toBe(422);
      expect(JSON.stringify(empty.json())).toContain('Please enter a website URL');
      const ftp = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/smart-crawl-preview',
        headers: auth,
        payload: { website_url: 'ftp://example.com/', keywords: [], max_depth: 2, focus_areas: [] },
      });
      expect(JSON.stringify(ftp.json())).toContain('Please enter a valid URL (including http:// or https://)');
      // Nothing was configured.
      expect((await h.app.inject({ url: `/api/v1/web-crawler/assistant/${owner.id}`, headers: auth })).json()).toEqual({
        success: true,
        data: null,
      });
    });

    it(
      "keeps every owner's crawler, pages, previews and progress to themselves: 404 for anyone else, the socket included",
      { timeout: 120_000 },
      async () => {
        const alice = await ownerWithAssistant(h);
        const bob = await ownerWithAssistant(h);
        const aliceAuth = { authorization: alice.authorization };
        const bobAuth = { authorization: bob.authorization };
        const started = (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/web-crawler/',
            headers: aliceAuth,
            payload: { assistant_id: alice.id, website_url: `${site.origin}/`, crawl_interval: 'none', max_pages: 5 },
          })
        ).json().data;
        await progressOf(h, alice, started.crawl_id);
        const url = (
          await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${alice.id}/urls`, headers: aliceAuth })
        ).json().urls[0];
        expect(url).toBeDefined();

        for (const call of [
          { method: 'GET', url: `/api/v1/web-crawler/assistant/${alice.id}` },
          { method: 'PUT', url: `/api/v1/web-crawler/${started.crawler_config_id}`, payload: { crawl_interval: '4h' } },
          { method: 'DELETE', url: `/api/v1/web-crawler/${started.crawler_config_id}` },
          { method: 'POST', url: `/api/v1/web-crawler/${started.crawler_config_id}/test` },
          {
            method: 'POST',
            url: '/api/v1/web-crawler/',
            payload: { assistant_id: alice.id, website_url: `${site.origin}/`, crawl_interval: '24h' },
          },
          {
            method: 'POST',
            url: '/api/v1/web-crawler/commit-files',
            payload: { crawler_config_id: started.crawler_config_id, selected_file_names: [url.filename] },
          },
          {
            method: 'POST',
            url: '/api/v1/web-crawler/smart-crawl-commit',
            payload: { preview_id: started.crawl_id, assistant_id: bob.id, selected_filenames: [url.filename] },
          },
          { method: 'GET', url: `/api/v1/crawler-settings/assistant/${alice.id}/urls` },
          { method: 'GET', url: `/api/v1/crawler-settings/assistant/${alice.id}/stats` },
          { method: 'PUT', url: `/api/v1/crawler-settings/url/${url.id}`, payload: { is_enabled: false } },
          { method: 'POST', url: `/api/v1/crawler-settings/url/${url.id}/toggle` },
          { method: 'GET', url: `/api/v1/crawler-settings/url/${url.id}/content` },
          {
            method: 'DELETE',
            url: `/api/v1/crawler-settings/assistant/${alice.id}/urls`,
            payload: { url_ids: [url.id] },
          },
          {
            method: 'DELETE',
            url: `/api/v1/crawler-settings/assistant/${bob.id}/urls`,
            payload: { url_ids: [url.id] },
          },
          { method: 'GET', url: `/api/v1/assistants/${alice.id}/crawler-pages` },
        ] as const) {
          const answer = await h.app.inject({ ...call, headers: bobAuth });
          expect(answer.statusCode, `${call.method} ${call.url}`).toBe(404);
        }
        expect((await h.app.inject({ url: '/api/v1/web-crawler/user/all', headers: bobAuth })).json().data).toEqual([]);
        await expect(
          h.app.injectWS(`/api/v1/ws/crawl-progress/${started.crawl_id}`, { headers: bobAuth }),
        ).rejects.toThrow(/404/);
        await expect(h.app.injectWS(`/api/v1/ws/crawl-progress/${started.crawl_id}`)).rejects.toThrow(/401/);
        // The socket's address asked for without a WebSocket: the API's one error shape, not an empty answer.
        const plain = await h.app.inject({ url: `/api/v1/ws/crawl-progress/${started.crawl_id}`, headers: aliceAuth });
        expect([plain.statusCode, plain.json()]).toMatchObject([
          426,
          { detail: 'This address takes a WebSocket connection.' },
        ]);
        // An id that is not one (found by the bad-input fuzz: a NUL reached the database as a 500) is a crawl not found.
        for (const bad of ['%00', 'a%00b', '%E2%80%AE', 'x'.repeat(200)]) {
          const answer = await h.app.inject({ url: `/api/v1/ws/crawl-progress/${bad}`, headers: aliceAuth });
          expect(answer.statusCode, bad).toBe(404);
        }
        // Alice's things are as they were.
        expect(
          (await h.app.inject({ url: `/api/v1/crawler-settings/url/${url.id}/content`, headers: aliceAuth }))
            .statusCode,
        ).toBe(200);
        expect(
          (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${alice.id}`, headers: aliceAuth })).json().data
            .crawl_interval,
        ).toBe('none');
      },
    );
  },
);

describe.skipIf(!postgres.available)(
  `the plan's limits on crawled pages${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let site: LocalSite;

    beforeAll(async () => {
      site = await startLocalSite({ posts: 3, hebrewPosts: 1 });
      h = await createApiHarness({
        env: {
          ...env,
          PLAN_FREE_MAX_CRAWL_PAGES: '2',
          PLAN_FREE_MAX_ASSISTANTS: '2',
          KNOWLEDGE_STORAGE_LIMIT_BYTES: '20000',
        },
      });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await site?.close();
    });

    it(
      "adds pages up to the plan's crawled pages per assistant and the owner's storage, and says which were left out and why",
      { timeout: 120_000 },
      async () => {
        const owner = await ownerWithAssistant(h);
        const auth = { authorization: owner.authorization };
        // One page per preview (depth 0): the plan's crawled pages cap every crawl too.
        const commitPage = async (assistantId: number, path: string) => {
          const preview = (
            await h.app.inject({
              method: 'POST',
              url: '/api/v1/web-crawler/smart-crawl-preview',
              headers: auth,
              payload: { website_url: `${site.origin}${path}`, keywords: [], max_depth: 0, focus_areas: [] },
            })
          ).json();
          const filename = fileNamed(preview.preview_files, path)!.filename;
          const result = (
            await h.app.inject({
              method: 'POST',
              url: '/api/v1/web-crawler/smart-crawl-commit',
              headers: auth,
              payload: { preview_id: preview.preview_id, assistant_id: assistantId, selected_filenames: [filename] },
            })
          ).json();
          return { filename, result };
        };

        expect((await commitPage(owner.id, '/pricing')).result).toMatchObject({ committed_files: 1 });
        expect((await commitPage(owner.id, '/about')).result).toMatchObject({ committed_files: 1 });
        const limited = (await commitPage(owner.id, '/faq')).result;
        expect(limited).toMatchObject({
          committed_files: 0,
          failed_files: [
            {
              reason:
                "This assistant has reached its plan's limit of 2 crawled pages. Remove some pages or upgrade the plan to add more.",
            },
          ],
        });

        // A second assistant of the same owner: the 300 KB page does not fit in the owner's storage.
        const second = (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: auth,
            payload: { name: 'Second', description: 'Second', instructions: 'Second' },
          })
        ).json().assistant_id as number;
        const big = await commitPage(second, '/big');
        expect(big.result).toMatchObject({
          committed_files: 0,
          failed_files: [
            {
              filename: big.filename,
              reason:
                "Your plan's storage for knowledge files (100 MB) is full. Delete some files or upgrade the plan to upload more.",
            },
          ],
        });
        expect((await h.app.inject({ url: `/api/v1/assistants/${second}/files`, headers: auth })).json()).toEqual([]);

        // The second assistant holds one page, and the site drops it: the scheduled recrawl keeps nothing — and
        // that is its result (the page removed, as the configuration asks), not a failed crawl.
        const config = (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/web-crawler/',
            headers: auth,
            payload: {
              assistant_id: second,
              website_url: `${site.origin}/about`,
              crawl_interval: '4h',
              delete_orphaned_pages: true,
              start_crawl: false,
            },
          })
        ).json().data;
        expect(config.crawl_id).toBeNull();
        // The free plan has no scheduled recrawl: saved without a schedule; the recrawl below is asked for as a paid plan's would be.
        expect(config.crawl_interval).toBe('none');
        expect((await commitPage(second, '/about')).result).toMatchObject({ committed_files: 1 });
        site.remove('/about');
        const { createRecrawlScheduler } = await import('../../../workers/crawler/recrawl-scheduler.js');
        const { crawlerQueries } = await import('@kesher/projections/crawler/crawler.queries');
        const later = new Date(Date.now() + 5 * 3600_000);
        const saved = (await crawlerQueries(h.platform.sql).config(owner.accountId, config.crawler_config_id))!;
        const due = [
          {
            configId: saved.configId,
            assistantId: saved.assistantId,
            ownerId: owner.accountId,
            nextCrawlAt: new Date(Date.now() + 4 * 3600_000).toISOString(),
          },
        ];
        const scheduler = createRecrawlScheduler({
          handle: h.platform.handle,
          eventStore: h.platform.eventStore,
          dueConfigs: async () => due,
          planOf: async () => plans.PRO,
          clock: () => later,
          intervalMs: 0,
        });
        expect(await scheduler.tick()).toBe(1);
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${second}`, headers: auth })).json().data
                .last_crawl_status,
            within,
          )
          .toBe('completed');
        expect(
          (await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${second}/urls`, headers: auth })).json()
            .total,
        ).toBe(0);
        expect((await h.app.inject({ url: `/api/v1/assistants/${second}/files`, headers: auth })).json()).toEqual([]);
      },
    );
  },
);

describe.skipIf(!kafka.available)(
  `the Smart Web Crawler on Kafka${kafka.available ? '' : ` (not run: ${kafka.reason})`}`,
  () => {
    let h: ApiHarness;
    let site: LocalSite;

    beforeAll(async () => {
      site = await startLocalSite({ posts: 6, hebrewPosts: 2 });
      h = await createApiHarness({ bus: 'kafka', env });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await site?.close();
    });

    it('crawls, adds the pages and answers from them with their address', { timeout: 180_000 }, async () => {
      const owner = await ownerWithAssistant(h);
      const auth = { authorization: owner.authorization };
      const started = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/',
          headers: auth,
          payload: { assistant_id: owner.id, website_url: `${site.origin}/`, crawl_interval: '24h' },
        })
      ).json().data;
      const last = (await progressOf(h, owner, started.crawl_id)).at(-1)!;
      expect(last).toMatchObject({ status: 'completed', progress_percentage: 100 });
      await expect
        .poll(
          async () =>
            (
              await h.app.inject({
                url: `/api/v1/crawler-settings/assistant/${owner.id}/urls?search=pricing`,
                headers: auth,
              })
            ).json().urls[0]?.training_status,
          within,
        )
        .toBe('trained');
      const answer = await ask(h, owner, 'How much is the cheesecake?');
      expect(answer.content[0]!.text.value).toContain('$32');
      expect(answer.sources.map((source) => source.source_url)).toContain(`${site.origin}/pricing`);
    });
  },
);
