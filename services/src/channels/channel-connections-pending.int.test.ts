import { plans } from '@kesher/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENCY_HEADER } from '../api/command-runner.js';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { freePort, waitUntil } from '../testing/processes.js';
import { postgresAvailability } from '../testing/test-database.js';
import { startChannelStandIns, type ChannelStandIns } from './testing/channel-stand-ins.js';

const gate = await postgresAvailability();

/**
 * Writes answered while their read model is behind (its table locked, so the real projector cannot apply
 * them and the read-your-writes wait runs out): connecting another Telegram bot answers the bot just
 * connected — not the one the read model still shows — and a tracked query answers its own id; both are
 * marked `Kesher-Consistency: pending`, neither is a 5xx.
 */
describe.skipIf(!gate.available)(
  `channel connection and tracked query while the read model is behind${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      h = await createApiHarness({
        settleReads: false,
        env: { TELEGRAM_API_URL: standIns.urls.telegram, PUBLIC_URL: `http://127.0.0.1:${port}` },
        planOf: async () => plans.PRO,
      });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    /** EXCLUSIVE: the projector cannot write these tables; reads go on. */
    async function hold(...tables: string[]) {
      const client = new pg.Client({ connectionString: h.dbUrl });
      await client.connect();
      await client.query('BEGIN');
      for (const table of tables) await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
      return async () => {
        await client.query('COMMIT');
        await client.end();
      };
    }

    it('answers the bot just connected and the query just tracked, marked pending', { timeout: 120_000 }, async () => {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer kindly.' },
      });
      const assistantId = created.json().assistant_id as number;
      const first = standIns.addBot('first_bakery_bot');
      const second = standIns.addBot('second_bakery_bot');
      const setup = (token: string) =>
        h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${assistantId}/telegram/setup`,
          headers: auth,
          payload: { bot_token: token },
        });
      expect((await setup(first.token)).statusCode).toBe(200);

      const release = await hold('channel_integrations', 'analytics_queries');
      try {
        const [connected, tracked] = await Promise.all([
          setup(second.token),
          h.app.inject({
            method: 'POST',
            url: '/api/v1/analytics/track-query',
            headers: auth,
            payload: { query: 'Are you open on Friday?', success: true },
          }),
        ]);
        expect(connected.statusCode, connected.body).toBe(200);
        expect(connected.headers[CONSISTENCY_HEADER]).toBe('pending');
        // The read model still has first_bakery_bot as the active connection.
        expect(connected.json()).toMatchObject({
          bot_username: 'second_bakery_bot',
          is_active: true,
          integration: { bot_username: 'second_bakery_bot', status: 'active' },
        });
        expect(tracked.statusCode, tracked.body).toBe(201);
        expect(tracked.headers[CONSISTENCY_HEADER]).toBe('pending');
        expect(tracked.json().data.query_id).toEqual(expect.any(String));
      } finally {
        await release();
      }
      const integration = async () =>
        (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/telegram`, headers: auth })).json() as {
          bot_username?: string;
        };
      await waitUntil(async () => (await integration()).bot_username === 'second_bakery_bot', {
        what: 'the second bot in the read model',
      });
    });
  },
);
