import { crawlerMessages, plans, type Plan } from '@kesher/contracts';
import { crawlerQueries } from '@kesher/projections/crawler/crawler.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';
import { createRecrawlScheduler } from '../../../workers/crawler/recrawl-scheduler.js';

const postgres = await postgresAvailability();
const within = { timeout: 30_000, interval: 50 };
const gate = 'Scheduled recrawl needs a paid plan. Upgrade on the pricing page to use it.';
const site = 'http://127.0.0.1:9/';

/**
 * Issue 21 items 8 and 7: scheduled recrawl ("auto-sync", spec part 2 §6) is a paid feature — checked
 * when the schedule is saved and again when a recrawl comes due, so a plan that ended pauses it and the
 * owner reads why.
 */
describe.skipIf(!postgres.available)(
  `scheduled recrawl on the owner's plan${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    const planOf = new Map<string, Plan>();
    const plan = async (ownerId: string) => planOf.get(ownerId) ?? plans.FREE;

    beforeAll(async () => {
      h = await createApiHarness({
        env: { OUTBOUND_ALLOWLIST: '127.0.0.1', RECRAWL_CHECK_INTERVAL_MS: '0' },
        planOf: plan,
      });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    async function ownerWithAssistant() {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Crumb', description: 'Bakery', instructions: 'Be kind' },
      });
      expect(created.statusCode, created.body).toBe(201);
      return { ...owner, auth, assistantId: created.json().assistant_id as number };
    }
    const configOf = async (owner: Awaited<ReturnType<typeof ownerWithAssistant>>) =>
      (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${owner.assistantId}`, headers: owner.auth })).json()
        .data;

    it("saves a free owner's crawler without a schedule, and refuses setting one with the gate's text", async () => {
      const owner = await ownerWithAssistant();
      const saved = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/',
        headers: owner.auth,
        payload: { assistant_id: owner.assistantId, website_url: site, crawl_interval: '4h', start_crawl: false },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().data).toMatchObject({ crawl_interval: 'none', crawl_id: null });
      await expect
        .poll(() => configOf(owner), within)
        .toMatchObject({ crawl_interval: 'none', next_crawl_at: null, schedule_paused_reason: null });

      const refused = await h.app.inject({
        method: 'PUT',
        url: `/api/v1/web-crawler/${saved.json().data.crawler_config_id}`,
        headers: owner.auth,
        payload: { crawl_interval: '4h', max_pages: 7 },
      });
      expect([refused.statusCode, refused.json()]).toMatchObject([403, { detail: gate }]);
      // Nothing of the refused change was saved; manual only stays allowed.
      expect(await configOf(owner)).toMatchObject({ crawl_interval: 'none', next_crawl_at: null, max_pages: 2000 });
      const manual = await h.app.inject({
        method: 'PUT',
        url: `/api/v1/web-crawler/${saved.json().data.crawler_config_id}`,
        headers: owner.auth,
        payload: { crawl_interval: 'none', max_pages: 7 },
      });
      expect(manual.statusCode, manual.body).toBe(200);
      expect(manual.json().data).toMatchObject({ crawl_interval: 'none', max_pages: 7, next_crawl_at: null });
    });

    it('pauses a schedule whose plan ended before it came due, says why, and resumes when the interval is saved again on a paid plan', async () => {
      const owner = await ownerWithAssistant();
      planOf.set(owner.accountId, plans.PRO);
      const saved = await h.app.inject({
        method: 'POST',
        url: '/api/v1/web-crawler/',
        headers: owner.auth,
        payload: { assistant_id: owner.assistantId, website_url: site, crawl_interval: '4h', start_crawl: false },
      });
      expect(saved.json().data).toMatchObject({ crawl_interval: '4h' });
      await expect.poll(async () => (await configOf(owner)).next_crawl_at, within).not.toBeNull();
      const dueAt = Date.parse((await configOf(owner)).next_crawl_at);

      // The subscription ends; the recrawl comes due.
      planOf.delete(owner.accountId);
      const queries = crawlerQueries(h.platform.sql);
      const scheduler = createRecrawlScheduler({
        handle: h.platform.handle,
        eventStore: h.platform.eventStore,
        dueConfigs: (now) => queries.system.dueConfigs(now),
        planOf: plan,
        clock: () => new Date(dueAt + 1000),
        intervalMs: 0,
      });
      expect(await scheduler.tick()).toBe(0);
      await expect
        .poll(() => configOf(owner), within)
        .toMatchObject({
          crawl_interval: '4h',
          next_crawl_at: null,
          schedule_paused_reason: crawlerMessages.schedulePaused,
          last_crawl_id: null,
        });
      expect(await queries.system.dueConfigs(new Date(dueAt + 3600_000))).toEqual([]);

      // Other changes keep it paused; saving the interval again on a paid plan resumes it.
      const configId = saved.json().data.crawler_config_id as string;
      expect(
        (
          await h.app.inject({
            method: 'PUT',
            url: `/api/v1/web-crawler/${configId}`,
            headers: owner.auth,
            payload: { max_depth: 3 },
          })
        ).json().data,
      ).toMatchObject({ next_crawl_at: null, schedule_paused_reason: crawlerMessages.schedulePaused });
      planOf.set(owner.accountId, plans.PRO);
      const resumed = await h.app.inject({
        method: 'PUT',
        url: `/api/v1/web-crawler/${configId}`,
        headers: owner.auth,
        payload: { crawl_interval: '4h' },
      });
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json().data).toMatchObject({ crawl_interval: '4h', schedule_paused_reason: null });
      expect(resumed.json().data.next_crawl_at).not.toBeNull();
    });
  },
);
