import { plans } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startChannelStandIns,
  telegramTextUpdate,
  type ChannelStandIns,
} from '../../../channels/testing/channel-stand-ins.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { freePort } from '../../../testing/processes.js';
import { postgresAvailability } from '../../../testing/test-database.js';

/**
 * The channels' webhook addresses under a flood of made-up integration ids, on the real API over Postgres:
 * what names no connection counts against the caller's address (the API-wide per-address limit), while a
 * real connection keeps its own allowance, whoever floods.
 */
const gate = await postgresAvailability();
const PER_ADDRESS = 40;
const FLOODER = '203.0.113.7';

describe.skipIf(!gate.available)(
  `channel webhooks: the per-address limit${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      h = await createApiHarness({
        env: {
          TELEGRAM_API_URL: standIns.urls.telegram,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          RATE_LIMIT_PER_MINUTE: String(PER_ADDRESS),
          CHANNEL_WEBHOOK_PER_MINUTE: '6000',
        },
        planOf: async () => plans.PRO,
      });
      await h.app.listen({ port, host: '127.0.0.1' });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    const madeUpId = (i: number) => `int_${i.toString(16).padStart(32, '0')}`;

    it('posts to unknown integration ids from one address get 429 once the address is over its limit; another address and a real connection are unaffected', async () => {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const assistant = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: auth,
          payload: { name: 'Bakery', description: 'd', instructions: 'i' },
        })
      ).json().assistant_id as number;
      const bot = standIns.addBot('flood_proof_bot');
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${assistant}/telegram/setup`,
            headers: auth,
            payload: { bot_token: bot.token },
          })
        ).statusCode,
      ).toBe(200);
      const known = standIns.webhookOf(bot.token)!.url.match(/int_[0-9a-f]{32}/)![0];

      // Every channel's address, made-up ids, a real id under another channel's address, a malformed id.
      const targets = (i: number) =>
        [
          { method: 'POST' as const, url: `/api/v1/channels/telegram/${madeUpId(i)}/webhook` },
          { method: 'POST' as const, url: `/api/v1/channels/whatsapp/${madeUpId(i)}/webhook` },
          {
            method: 'GET' as const,
            url: `/api/v1/channels/instagram/${madeUpId(i)}/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`,
          },
          { method: 'POST' as const, url: `/api/v1/channels/instagram/${known}/webhook` },
          { method: 'POST' as const, url: `/api/v1/channels/telegram/not-an-id-${i}/webhook` },
        ][i % 5]!;
      const statuses: number[] = [];
      for (let i = 0; i < PER_ADDRESS + 20; i++) {
        const { method, url } = targets(i);
        const res = await h.app.inject({
          method,
          url,
          remoteAddress: FLOODER,
          headers: { 'content-type': 'application/json' },
          ...(method === 'POST' ? { payload: '{"update_id":1}' } : {}),
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().detail).toBe('Too many requests. Please try again later.');
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(
        statuses.slice(0, PER_ADDRESS).every((status) => status === 404 || status === 422),
        statuses.join(' '),
      ).toBe(true);
      expect(statuses.slice(PER_ADDRESS), statuses.join(' ')).toEqual(Array(20).fill(429));

      // Another address is not punished for the flood; the real connection's deliveries still arrive,
      // even from the flooding address (its own allowance, not the address's).
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/channels/telegram/${madeUpId(999)}/webhook`,
            remoteAddress: '198.51.100.2',
            headers: { 'content-type': 'application/json' },
            payload: '{}',
          })
        ).statusCode,
      ).toBe(404);
      const real = await h.app.inject({
        method: 'POST',
        url: `/api/v1/channels/telegram/${known}/webhook`,
        remoteAddress: FLOODER,
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'wrong' },
        payload: '{}',
      });
      expect(real.statusCode).toBe(403);
      expect((await standIns.telegramUpdate(bot.token, telegramTextUpdate(7001, 4401, 'Hello'))).status).toBe(200);
    });
  },
);
