import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkFloodSite, type LinkFloodSite } from '../../../crawler/testing/link-flood-site.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const postgres = await postgresAvailability();
const within = { timeout: 170_000, interval: 100 };
const MB = 1024 * 1024;

/**
 * Issue 21 item 4, the attack on a running server: a free owner crawls a site whose 5 pages hold 10,000
 * distinct links each. Before the bounds this appended 50,016 events (124 MB) and counted nothing of the
 * owner's storage; now a crawl at the plan's page limit records a few hundred events, at most a few MB
 * beyond its pages' text, and the owner's storage counts what it stored.
 */
describe.skipIf(!postgres.available)(
  `a crawl of pages full of links${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let site: LinkFloodSite;

    beforeAll(async () => {
      site = await startLinkFloodSite({ linkPages: 5, linksPerPage: 10_000 });
      // The site is on 127.0.0.1: only the tests' loopback is let through the SSRF guard.
      h = await createApiHarness({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1', RECRAWL_CHECK_INTERVAL_MS: '0' } });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await site?.close();
    });

    it(
      "stores a bounded record whatever the pages link to, and counts it against the owner's storage",
      { timeout: 240_000 },
      async () => {
        const owner = await h.owner();
        const auth = { authorization: owner.authorization };
        const created = await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: auth,
          payload: { name: 'Catalogue', description: 'Bakery catalogue', instructions: 'Answer from the site' },
        });
        expect(created.statusCode, created.body).toBe(201);
        const assistantId = created.json().assistant_id as number;
        const storageMb = async () =>
          (await h.app.inject({ url: '/api/v1/limits/usage', headers: auth })).json().usage.storage_mb as number;
        const storageBefore = await storageMb();
        const {
          rows: [mark],
        } = await h.platform.sql.query<{ position: string | null }>(
          `SELECT max(global_position)::text AS position FROM events`,
        );

        const started = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/',
          headers: auth,
          payload: { assistant_id: assistantId, website_url: `${site.origin}/`, crawl_interval: 'none' },
        });
        expect(started.statusCode, started.body).toBe(200);
        const crawlId = started.json().data.crawl_id as string;
        const crawler = async () =>
          (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${assistantId}`, headers: auth })).json().data;
        await expect.poll(async () => (await crawler()).last_crawl_status, within).toBe('completed');
        // What the crawl said of its end (its reason and counts), printed when an expectation below fails.
        const {
          rows: [last],
        } = await h.platform.sql.query<{ type: string; data: unknown }>(
          `SELECT event_type AS type, data FROM events WHERE stream_id = $1 ORDER BY global_position DESC LIMIT 1`,
          [`crawl-${crawlId}`],
        );
        const ended = JSON.stringify(last);
        console.log('crawl ended', ended);

        // What the run appended to the event log: every event after the mark (the crawl, its pages' files, their ingestion).
        const {
          rows: [run],
        } = await h.platform.sql.query<{ events: string; bytes: string }>(
          `SELECT count(*)::text AS events, coalesce(sum(octet_length(data::text) + octet_length(metadata::text)), 0)::text AS bytes FROM events WHERE global_position > $1`,
          [mark?.position ?? '0'],
        );
        const {
          rows: [crawl],
        } = await h.platform.sql.query<{ events: string; bytes: string; text: string; kept: string }>(
          `SELECT count(*)::text AS events, sum(octet_length(data::text) + octet_length(metadata::text))::text AS bytes,
         coalesce(sum((data->>'bytes')::bigint) FILTER (WHERE event_type = 'PageFetched'), 0)::text AS text,
         count(*) FILTER (WHERE event_type = 'PageFetched')::text AS kept
       FROM events WHERE stream_id = $1`,
          [`crawl-${crawlId}`],
        );
        const figures = {
          runEvents: Number(run!.events),
          runMb: Number(run!.bytes) / MB,
          crawlEvents: Number(crawl!.events),
          crawlMb: Number(crawl!.bytes) / MB,
          textMb: Number(crawl!.text) / MB,
          kept: Number(crawl!.kept),
        };
        console.log('link flood crawl', JSON.stringify(figures));

        // The free plan's 50 pages were crawled, so the crawl went as far as it may.
        expect(figures.kept, ended).toBe(50);
        // Events in proportion to the pages, not to the 50,000 links: one per page fetched, its links, its score, a few more.
        expect(figures.crawlEvents).toBeLessThan(400);
        // A few MB at most beyond the pages' text (the pages' files and their ingestion included).
        expect(figures.runMb - figures.textMb).toBeLessThan(3);

        // The owner's storage grew by what the crawl stored: its record in the log and the pages' knowledge files.
        const files = (
          await h.app.inject({ url: `/api/v1/assistants/${assistantId}/files`, headers: auth })
        ).json() as Array<{ bytes: number }>;
        const filesMb = files.reduce((sum, file) => sum + file.bytes, 0) / MB;
        expect(files.length).toBe(50);
        await expect
          .poll(async () => (await storageMb()) - storageBefore, within)
          .toBeGreaterThanOrEqual(Math.floor((filesMb + figures.crawlMb * 0.9) * 100) / 100);
        expect((await storageMb()) - storageBefore).toBeLessThanOrEqual(
          Math.ceil((filesMb + figures.crawlMb * 1.05) * 100) / 100 + 0.01,
        );
      },
    );
  },
);
