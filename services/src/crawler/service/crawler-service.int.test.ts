import {
  PreviewJobDoneSchema,
  PreviewJobRunningSchema,
  PreviewJobStartedSchema,
  SmartCrawlPreviewResponseSchema,
} from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSite, type LocalSite } from '../testing/local-site.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';

const postgres = await postgresAvailability();
const within = { timeout: 60_000, interval: 50 };
const env = { OUTBOUND_ALLOWLIST: '127.0.0.1', RECRAWL_CHECK_INTERVAL_MS: '0', PLAN_FREE_MAX_ASSISTANTS: '5' };

/**
 * The crawler's use cases behind the HTTP facade (crawler/service): the preview as a job the client
 * follows, Add Missing Page's robots rule, and one crawler state shared by the crawler's screens and
 * the assistant's Edit page. A running server on real Postgres, crawling a local site.
 */
describe.skipIf(!postgres.available)(
  `the crawler service${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let site: LocalSite;

    beforeAll(async () => {
      site = await startLocalSite({ posts: 2, robotsTxt: 'User-agent: *\nDisallow: /faq\n' });
      h = await createApiHarness({ env });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await site?.close();
    });

    async function ownerWithAssistant() {
      const owner = await h.owner();
      const headers = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers,
        payload: { name: 'Crumb', description: 'Bakery', instructions: 'Answer' },
      });
      expect(created.statusCode).toBe(201);
      return { headers, assistantId: created.json().assistant_id as number };
    }

    const previewBody = (assistantId: number) => ({
      website_url: `${site.origin}/`,
      keywords: [],
      max_depth: 1,
      focus_areas: [],
      assistant_id: assistantId,
    });

    it(
      'runs the preview as a job: 202 with its id at once, its progress while it runs, the spec’s result once done',
      { timeout: 120_000 },
      async () => {
        const { headers, assistantId } = await ownerWithAssistant();
        const started = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-preview/jobs',
          headers,
          payload: previewBody(assistantId),
        });
        expect(started.statusCode, started.body).toBe(202);
        const { preview_id: previewId } = PreviewJobStartedSchema.parse(started.json());
        expect(previewId).toMatch(/^preview_/);

        const job = () => h.app.inject({ url: `/api/v1/web-crawler/smart-crawl-preview/jobs/${previewId}`, headers });
        const first = await job();
        // Asked at once, the scan has hardly begun: 202 with its progress (or, on a fast machine, already done).
        if (first.statusCode === 202)
          expect(PreviewJobRunningSchema.parse(first.json()).progress.crawl_id).toBe(previewId);
        await expect.poll(async () => (await job()).statusCode, within).toBe(200);
        const done = PreviewJobDoneSchema.parse((await job()).json());
        expect(done.result.preview_id).toBe(previewId);
        expect(done.result.assistant_id).toBe(assistantId);
        expect(done.result.preview_files.map((file) => new URL(file.url).pathname)).toContain('/pricing');
        expect(done.result.crawl_result.base_url).toBe(`${site.origin}/`);

        // The dialog saves the site once the scan found pages, then commits the chosen ones from the job.
        const saved = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/',
          headers,
          payload: {
            assistant_id: assistantId,
            website_url: `${site.origin}/`,
            crawl_interval: 'none',
            start_crawl: false,
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const chosen = done.result.preview_files.find((file) => new URL(file.url).pathname === '/pricing')!.filename;
        const commit = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-commit',
          headers,
          payload: { preview_id: previewId, assistant_id: assistantId, selected_filenames: [chosen] },
        });
        expect(commit.json()).toMatchObject({ committed_files: 1 });
        // Right after the commit the dialog's configuration says when and how many (was "Last crawled: Not yet").
        const config = (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${assistantId}`, headers })).json()
          .data;
        expect(config).toMatchObject({ files_count: 1 });
        expect(config.last_crawled).not.toBeNull();
        const settings = (
          await h.app.inject({ url: `/api/v1/crawler-settings/assistant/${assistantId}/urls?skip=0&limit=20`, headers })
        ).json();
        expect(config.last_crawled).toBe(settings.urls[0].last_crawled_at);

        // The crawl asked for once: its progress, as the socket says it; another owner's or a missing one is a 404.
        const progress = await h.app.inject({ url: `/api/v1/web-crawler/crawls/${previewId}`, headers });
        expect(progress.json()).toMatchObject({ crawl_id: previewId, status: 'completed' });
        expect((await h.app.inject({ url: '/api/v1/web-crawler/crawls/crawl_gone', headers })).statusCode).toBe(404);

        // Another owner's job is a 404 exactly like a missing one.
        const stranger = await h.owner();
        const theirs = await h.app.inject({
          url: `/api/v1/web-crawler/smart-crawl-preview/jobs/${previewId}`,
          headers: { authorization: stranger.authorization },
        });
        expect(theirs.statusCode).toBe(404);
        expect(
          (
            await h.app.inject({
              url: `/api/v1/web-crawler/crawls/${previewId}`,
              headers: { authorization: stranger.authorization },
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await h.app.inject({ url: '/api/v1/web-crawler/smart-crawl-preview/jobs/preview_nope', headers }))
            .statusCode,
        ).toBe(404);
      },
    );

    it(
      "says why a job's scan failed (the site could not be reached) with a 4xx, and saves nothing",
      { timeout: 120_000 },
      async () => {
        const { headers, assistantId } = await ownerWithAssistant();
        const dead = await startLocalSite({ posts: 1 });
        const deadUrl = `${dead.origin}/`;
        await dead.close();
        const started = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-preview/jobs',
          headers,
          payload: { ...previewBody(assistantId), website_url: deadUrl },
        });
        expect(started.statusCode, started.body).toBe(202);
        const previewId = started.json().preview_id as string;
        const job = () => h.app.inject({ url: `/api/v1/web-crawler/smart-crawl-preview/jobs/${previewId}`, headers });
        await expect.poll(async () => (await job()).statusCode, within).not.toBe(202);
        const failed = await job();
        expect(failed.statusCode).toBe(422);
        expect(failed.json().detail).toMatch(/could not be reached|No pages found/);
        // A scan is only a scan: no configuration (and so no schedule) was saved for the dead address.
        expect((await h.app.inject({ url: `/api/v1/web-crawler/assistant/${assistantId}`, headers })).json()).toEqual({
          success: true,
          data: null,
        });
      },
    );

    it('keeps the spec’s waiting preview call', { timeout: 120_000 }, async () => {
      const { headers, assistantId } = await ownerWithAssistant();
      const waited = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/smart-crawl-preview',
        headers,
        payload: previewBody(assistantId),
      });
      expect(waited.statusCode, waited.body).toBe(200);
      expect(SmartCrawlPreviewResponseSchema.parse(waited.json()).total_files).toBeGreaterThan(2);
    });

    it(
      "turning the crawler back on refreshes the pages the owner chose, not the whole site (pages: 'held')",
      { timeout: 180_000 },
      async () => {
        const { headers, assistantId } = await ownerWithAssistant();
        const configure = (extra: Record<string, unknown>) =>
          h.app.inject({
            method: 'POST',
            url: '/api/v1/web-crawler/',
            headers,
            payload: { assistant_id: assistantId, website_url: `${site.origin}/`, crawl_interval: 'none', ...extra },
          });
        expect((await configure({ start_crawl: false })).statusCode).toBe(200);
        const scanned = SmartCrawlPreviewResponseSchema.parse(
          (
            await h.app.inject({
              method: 'POST',
              url: '/api/v1/web-crawler/smart-crawl-preview',
              headers,
              payload: previewBody(assistantId),
            })
          ).json(),
        );
        const pricing = scanned.preview_files.find((file) => new URL(file.url).pathname === '/pricing')!;
        expect(scanned.preview_files.length).toBeGreaterThan(3);
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-commit',
          headers,
          payload: {
            preview_id: scanned.preview_id,
            assistant_id: assistantId,
            selected_filenames: [pricing.filename],
          },
        });

        const started = await configure({ start_crawl: true, pages: 'held', max_pages: 50, max_depth: 5 });
        expect(started.statusCode, started.body).toBe(200);
        const crawlId = started.json().data.crawl_id as string;
        const crawl = async () =>
          (await h.app.inject({ url: `/api/v1/web-crawler/crawls/${crawlId}`, headers })).json();
        await expect.poll(async () => (await crawl()).status, within).toBe('completed');
        // At most the pages held and the start page were asked for; the assistant still holds exactly the page chosen.
        expect((await crawl()).pages_processed).toBeLessThanOrEqual(2);
        const held = (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/crawler-pages`, headers })).json()
          .selected_pages as Array<{ url: string }>;
        expect(held.map((page) => new URL(page.url).pathname)).toEqual(['/pricing']);
      },
    );

    it(
      "refuses Add Missing Page for an address the site's robots.txt refuses: 422 with the reason and its code, nothing added",
      { timeout: 120_000 },
      async () => {
        const { headers, assistantId } = await ownerWithAssistant();
        const scanned = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/smart-crawl-preview',
          headers,
          payload: previewBody(assistantId),
        });
        const preview = SmartCrawlPreviewResponseSchema.parse(scanned.json());
        const add = (path: string) =>
          h.app.inject({
            method: 'POST',
            url: '/api/v1/web-crawler/fetch-single-url',
            headers,
            payload: { url: `${site.origin}${path}`, base_url: `${site.origin}/`, preview_id: preview.preview_id },
          });

        const refused = await add('/faq');
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toEqual({
          detail: "The site's robots.txt does not allow crawling this page.",
          code: 'crawler.robotsRefused',
        });
        const job = await h.app.inject({
          url: `/api/v1/web-crawler/smart-crawl-preview/jobs/${preview.preview_id}`,
          headers,
        });
        expect(
          PreviewJobDoneSchema.parse(job.json()).result.preview_files.some(
            (file) => new URL(file.url).pathname === '/faq',
          ),
        ).toBe(false);

        // An allowed page is still added.
        const allowed = await add('/about');
        expect(allowed.statusCode, allowed.body).toBe(200);
      },
    );

    it(
      'shows a crawler set up from the crawler dialog on the assistant (on, with its address, Sales Mode allowed); removing the site turns it off',
      { timeout: 120_000 },
      async () => {
        const { headers, assistantId } = await ownerWithAssistant();
        const assistant = async () =>
          (await h.app.inject({ url: `/api/v1/assistants/${assistantId}`, headers })).json();
        expect((await assistant()).web_crawler).toMatchObject({ enabled: false });

        const configured = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/',
          headers,
          payload: {
            assistant_id: assistantId,
            website_url: `${site.origin}/`,
            crawl_interval: 'none',
            start_crawl: false,
          },
        });
        expect(configured.statusCode, configured.body).toBe(200);
        expect((await assistant()).web_crawler).toMatchObject({ enabled: true, website_url: `${site.origin}/` });

        // Sales Mode needs the crawler on: the Edit page may now turn it on.
        const sales = await h.app.inject({
          method: 'PUT',
          url: `/api/v1/assistants/${assistantId}`,
          headers,
          payload: { payment_processing: { enabled: true, sales_prompt: '' } },
        });
        expect(sales.statusCode, sales.body).toBe(200);

        const configId = configured.json().data.crawler_config_id as string;
        const removed = await h.app.inject({ method: 'DELETE', url: `/api/v1/web-crawler/${configId}`, headers });
        expect(removed.statusCode).toBe(200);
        const after = await assistant();
        expect(after.web_crawler).toMatchObject({ enabled: false });
        // Sales Mode goes with the crawler (spec §4), as when the owner turns the crawler off.
        expect(after.payment_processing.enabled).toBe(false);
        expect(
          (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${assistantId}`, headers })).json().data,
        ).toBeNull();
      },
    );
  },
);
