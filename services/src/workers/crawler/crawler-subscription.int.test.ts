import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSite, type LocalSite } from '../../crawler/testing/local-site.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { kafkaAvailability } from '../../testing/kafka.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { topicFor } from '../../platform/bus/relayed-event.js';

const postgres = await postgresAvailability();
const kafka = postgres.available ? await kafkaAvailability() : postgres;
const within = { timeout: 120_000, interval: 100 };

/**
 * A crawl writes its progress (a page fetched, scored, skipped…) to its own stream, and so to the
 * crawler's topic: several events a page. The crawler worker reacts to the crawl's request alone, and
 * must be handed nothing else: before it declared its event types it parsed every progress event of
 * every crawl (twice: for its lane, then in its handler) and dropped it.
 */
for (const bus of ['in-process', 'kafka'] as const) {
  const gate = bus === 'kafka' ? kafka : postgres;
  describe.skipIf(!gate.available)(
    `the crawler's subscription on the ${bus} bus${gate.available ? '' : ` (not run: ${gate.reason})`}`,
    () => {
      let h: ApiHarness;
      let site: LocalSite;

      beforeAll(async () => {
        site = await startLocalSite({ posts: 40, hebrewPosts: 2 });
        h = await createApiHarness({
          bus,
          env: { OUTBOUND_ALLOWLIST: '127.0.0.1', RECRAWL_CHECK_INTERVAL_MS: '0', PLAN_FREE_MAX_FILES: '1000' },
        });
      }, 120_000);
      afterAll(async () => {
        await h?.close();
        await site?.close();
      });

      it("is handed a crawl's request, not its progress events", { timeout: 240_000 }, async () => {
        const owner = await h.owner();
        const auth = { authorization: owner.authorization };
        const created = await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: auth,
          payload: { name: 'Crumb', description: 'A bakery', instructions: 'Answer from the site' },
        });
        expect(created.statusCode).toBe(201);
        const started = await h.app.inject({
          method: 'POST',
          url: '/api/v1/web-crawler/',
          headers: auth,
          payload: {
            assistant_id: created.json().assistant_id,
            website_url: `${site.origin}/`,
            crawl_interval: 'none',
          },
        });
        expect(started.statusCode, started.body).toBeLessThan(300);
        const crawlId = started.json().data.crawl_id as string;
        const crawlEvents = () => h.platform.eventStore.readStream(streamIds.crawl(crawlId));
        await expect
          .poll(
            async () =>
              (await crawlEvents()).some((event) => event.type === 'CrawlPagesLinked' || event.type === 'CrawlFailed'),
            within,
          )
          .toBe(true);
        const events = await crawlEvents();
        expect(events.map((event) => event.type)).toContain('CrawlPagesLinked');

        const group = h.workers.groups.crawler;
        const topic = topicFor(streamIds.crawl(crawlId));
        const counted = async (outcome: 'handled' | 'skipped') =>
          (await h.platform.metrics.busMessages.get()).values.find(
            (v) => v.labels.group === group && v.labels.topic === topic && v.labels.outcome === outcome,
          )?.value ?? 0;
        // Every event of the crawl reaches the crawler's group; all but the request are skipped unread.
        await expect.poll(() => counted('skipped'), within).toBeGreaterThanOrEqual(events.length - 1);
        const handled = await counted('handled');
        const skipped = await counted('skipped');
        const shared = bus === 'kafka' ? ", with earlier test runs' crawls on the shared broker's topic" : '';
        console.log(
          `crawl of ${events.filter((event) => event.type === 'PageFetched').length} pages on the ${bus} bus: ${events.length} events on ${topic}; the crawler was handed ${handled}, skipped ${skipped} unread${shared} (before: every one handed and parsed)`,
        );
        // Exactly one on the in-process bus. A Kafka topic is shared by every deployment (test run) on the
        // broker, and a new group reads it from the start: their crawls' requests are handed over too.
        if (bus === 'in-process') expect(handled).toBe(1);
        else {
          expect(handled).toBeGreaterThanOrEqual(1);
          expect(handled).toBeLessThan(skipped / 10);
        }
        expect(events.length).toBeGreaterThan(40);
      });
    },
  );
}
