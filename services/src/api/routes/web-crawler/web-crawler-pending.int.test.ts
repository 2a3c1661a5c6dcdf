import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENCY_HEADER } from '../../command-runner.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { waitUntil } from '../../../testing/processes.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const postgres = await postgresAvailability();
/** Only saved, never fetched here: the SSRF guard lets 127.0.0.1 through in this test. */
const site = 'http://127.0.0.1:9/';

/**
 * Crawler configurations saved while the crawler read model is behind (crawler_configs locked, so the real
 * projector cannot apply the write and the read-your-writes wait runs out): the answer is what was decided,
 * marked `Kesher-Consistency: pending` — not the row the read model still has, and a second save names the
 * configuration the first one created, not a new id of its own.
 */
describe.skipIf(!postgres.available)(
  `crawler configuration while the read model is behind${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({
        settleReads: false,
        env: { OUTBOUND_ALLOWLIST: '127.0.0.1' },
      });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    async function holdConfigs() {
      const client = new pg.Client({ connectionString: h.dbUrl });
      await client.connect();
      await client.query('BEGIN');
      // EXCLUSIVE: the projector cannot write the table, reads go on.
      await client.query('LOCK TABLE crawler_configs IN EXCLUSIVE MODE');
      return async () => {
        await client.query('COMMIT');
        await client.end();
      };
    }

    it(
      'answers the saved configuration, marked pending, and keeps one configuration id',
      { timeout: 120_000 },
      async () => {
        const owner = await h.owner();
        const auth = { authorization: owner.authorization };
        const created = await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: auth,
          payload: { name: 'Crumb', description: 'Bakery', instructions: 'Be kind' },
        });
        expect(created.statusCode, created.body).toBe(201);
        const assistantId = created.json().assistant_id as number;
        const configure = (maxPages: number) =>
          h.app.inject({
            method: 'POST',
            url: '/api/v1/web-crawler/',
            headers: auth,
            payload: {
              assistant_id: assistantId,
              website_url: site,
              crawl_interval: 'none',
              max_pages: maxPages,
              start_crawl: false,
            },
          });
        const configOf = async () =>
          (await h.app.inject({ url: `/api/v1/web-crawler/assistant/${assistantId}`, headers: auth })).json().data as {
            id: string;
            max_pages: number;
          } | null;

        let release = await holdConfigs();
        let configId: string;
        try {
          const first = await configure(50);
          expect(first.statusCode, first.body).toBe(200);
          expect(first.headers[CONSISTENCY_HEADER]).toBe('pending');
          configId = first.json().data.crawler_config_id;
          // The read model has no row yet: the second save must still name the first one's configuration.
          const second = await configure(60);
          expect(second.statusCode, second.body).toBe(200);
          expect(second.headers[CONSISTENCY_HEADER]).toBe('pending');
          expect(second.json().data.crawler_config_id).toBe(configId);
        } finally {
          await release();
        }
        expect(
          await waitUntil(async () => (await configOf())?.max_pages === 60 && configOf(), {
            what: 'the configuration in the read model',
          }),
        ).toMatchObject({ id: configId, max_pages: 60 });

        release = await holdConfigs();
        try {
          const changed = await h.app.inject({
            method: 'PUT',
            url: `/api/v1/web-crawler/${configId}`,
            headers: auth,
            payload: { max_pages: 7 },
          });
          expect(changed.statusCode, changed.body).toBe(200);
          expect(changed.headers[CONSISTENCY_HEADER]).toBe('pending');
          expect(changed.json().data).toMatchObject({ id: configId, max_pages: 7, website_url: site });
        } finally {
          await release();
        }
        await waitUntil(async () => (await configOf())?.max_pages === 7, { what: 'the change in the read model' });
      },
    );
  },
);
