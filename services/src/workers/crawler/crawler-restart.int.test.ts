import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamIds, type KnowledgeFileUploaded, type PageFetched, type RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSite, type LocalSite } from '../../crawler/testing/local-site.js';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { exited, freePort, startMain, waitUntil } from '../../testing/processes.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';

const postgres = await postgresAvailability();

type Child = ReturnType<typeof startMain>;

/**
 * `make start`'s process (API, projector, relay, workers on the in-process bus) on Postgres, killed with
 * SIGKILL in the middle of a crawl and started again: the crawl carries on from its events. Pages whose
 * fetch was recorded before the kill are not fetched again, no page is recorded or ingested twice, and
 * the crawl ends with every page it kept in the assistant's knowledge.
 */
describe.skipIf(!postgres.available)(
  `a crawl whose process is killed${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    let site: LocalSite;
    let dataDir: string;
    let env: Record<string, string>;
    let base: string;
    const children = new Set<Child>();

    async function start() {
      const child = startMain('embedded', env);
      children.add(child);
      await waitUntil(() => child.output().includes('Kesher is running') || child.exitCode !== null, {
        timeoutMs: 90_000,
        intervalMs: 50,
        what: 'the server',
      });
      if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}):\n${child.output()}`);
      return child;
    }
    async function kill(child: Child) {
      child.kill('SIGKILL');
      await exited(child);
      children.delete(child);
    }

    beforeAll(async () => {
      db = await createTestDatabase('kesher_crawl_kill');
      // Slow pages (4 at a time per host), so that the kill lands in the middle of the crawl.
      site = await startLocalSite({ posts: 60, hebrewPosts: 2, latencyMs: 250 });
      dataDir = mkdtempSync(join(tmpdir(), 'kesher-crawl-kill-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}/api/v1`;
      env = {
        DATABASE_URL: db.url,
        PORT: String(port),
        DATA_DIR: dataDir,
        AUTH_SECRET: 'crawl-kill-test-secret-that-is-long-enough',
        NODE_ENV: 'test',
        OUTBOUND_ALLOWLIST: '127.0.0.1',
        METRICS_PORT: '',
        RECRAWL_CHECK_INTERVAL_MS: '0',
        PLAN_FREE_MAX_FILES: '1000',
      };
      sql = createPgSql({ connectionString: db.url, max: 2 });
      store = await createSqlEventStore({ sql });
    }, 120_000);

    afterAll(async () => {
      await Promise.all([...children].map((child) => kill(child)));
      await store?.close();
      await sql?.close();
      await site?.close();
      await db?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    async function call<T = Record<string, unknown>>(
      path: string,
      init: { token?: string; body?: unknown } = {},
    ): Promise<T> {
      const response = await fetch(`${base}${path}`, {
        method: init.body ? 'POST' : 'GET',
        headers: {
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    }

    const crawlEvents = () => store.readStream(streamIds.crawl(crawlId));
    const fetchedIn = (events: RecordedEvent[]) =>
      events.filter((event) => event.type === 'PageFetched').map((event) => event.data as PageFetched);
    let crawlId = '';

    it(
      'carries on from its events after a SIGKILL: recorded pages are not fetched again, nothing is recorded or ingested twice',
      { timeout: 240_000 },
      async () => {
        let child = await start();
        const { access_token: token } = await call<{ access_token: string }>('/auth/register', {
          body: { email: 'crawl-kill@example.com', password: 'Str0ng-Passw0rd!' },
        });
        const { assistant_id: assistantId } = await call<{ assistant_id: number }>('/assistants/', {
          token,
          body: { name: 'Crumb', description: 'A bakery', instructions: 'Answer from the site' },
        });
        const started = await call<{ data: { crawl_id: string } }>('/web-crawler/', {
          token,
          body: { assistant_id: assistantId, website_url: `${site.origin}/`, crawl_interval: 'none' },
        });
        crawlId = started.data.crawl_id;

        // Some pages recorded, the crawl far from done: kill the process outright.
        await waitUntil(async () => fetchedIn(await crawlEvents()).length >= 8, {
          timeoutMs: 60_000,
          intervalMs: 20,
          what: 'the first recorded pages',
        });
        await kill(child);
        const recordedBefore = fetchedIn(await crawlEvents());
        expect(recordedBefore.length).toBeLessThan(40);
        expect((await crawlEvents()).some((event) => event.type === 'CrawlCompleted')).toBe(false);
        const asksBefore = site.log.length;

        child = await start();
        await waitUntil(
          async () =>
            (await crawlEvents()).some((event) => event.type === 'CrawlPagesLinked' || event.type === 'CrawlFailed'),
          { timeoutMs: 120_000, intervalMs: 100, what: 'the end of the crawl' },
        );
        const events = await crawlEvents();
        expect(events.map((event) => event.type)).toContain('CrawlPagesLinked');

        // Nothing recorded before the kill was asked for again.
        const pathOf = (url: string) => decodeURI(new URL(url).pathname) + new URL(url).search;
        const recordedPaths = new Set(recordedBefore.map((page) => pathOf(page.url)));
        const askedAgain = site.log
          .slice(asksBefore)
          .map((entry) => entry.path)
          .filter((path) => recordedPaths.has(path));
        expect(askedAgain).toEqual([]);

        // Each page recorded once, and ingested once: one knowledge file per page, each from its own address.
        const fetched = fetchedIn(events);
        expect(new Set(fetched.map((page) => page.key)).size).toBe(fetched.length);
        expect(fetched.length).toBeGreaterThan(recordedBefore.length);
        const { rows } = await sql.query<{ data: KnowledgeFileUploaded }>(
          `SELECT data FROM events WHERE event_type = 'KnowledgeFileUploaded'`,
        );
        const sources = rows.map((row) => row.data.sourceUrl);
        expect(new Set(sources).size).toBe(sources.length);
        expect(sources.length).toBe(fetched.length);
        const linked = events.find((event) => event.type === 'CrawlPagesLinked')!.data as { linked: number };
        expect(linked.linked).toBe(fetched.length);
        await kill(child);
      },
    );
  },
);
