import { TEST_CARDS, usageMonth } from '@kesher/contracts';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { freePort } from '../testing/processes.js';
import { postgresAvailability } from '../testing/test-database.js';
import { startChannelStandIns, telegramTextUpdate, type ChannelStandIns } from './testing/channel-stand-ins.js';

/**
 * A channel follows the owner's plan for every message, not only when it was connected: on real Postgres,
 * with the real plan book (no test plans), an owner pays on the test payment page, connects Telegram, is
 * answered; cancels at once (back on Free): the connection shows as paused with why, and a customer's
 * message is neither answered nor counted; pays again: answering resumes.
 */
const gate = await postgresAvailability();
const within = { timeout: 30_000, interval: 50 };
const PAUSED =
  'Paused: your plan no longer includes Telegram, so the assistant does not answer there. Upgrade on the pricing page to resume.';

describe.skipIf(!gate.available)(
  `channels: paused while the plan does not include them${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      h = await createApiHarness({
        env: { TELEGRAM_API_URL: standIns.urls.telegram, PUBLIC_URL: `http://127.0.0.1:${port}` },
      });
      await h.app.listen({ port, host: '127.0.0.1' });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    /** The paid plan, bought the way an owner buys it on `make start`: checkout, then the test payment page's form. */
    async function pay(authorization: string) {
      const checkout = await h.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/checkout',
        headers: { authorization },
        payload: { tier: 'pro', billing_period: 'monthly' },
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      const params = Object.fromEntries(new URL(checkout.json().url, 'http://x').searchParams);
      const form = new URLSearchParams({
        ...params,
        card_number: TEST_CARDS.success,
        card_holder: 'Dana Levi',
        expiry: '12/30',
        cvv: '123',
      });
      const paid = await h.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/tranzila-mock',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
      expect(paid.json().status, paid.body).toBe('success');
    }

    /**
     * Resolves once the channels worker has handled the customer's message carrying `text`: the bus's
     * committed offset of its inbound group is past the message (the offset is stored only once handled).
     * The text travels sealed (docs/privacy.md): the message is found by its stream, read opened from the log.
     */
    async function handled(text: string) {
      const streamOf = async () => {
        const { events } = await h.platform.eventStore.readAll({
          maxCount: 10_000,
          filter: { eventTypes: ['ChannelMessageReceived'] },
        });
        return events.find((e) => (e.data as { text: string }).text === text)?.streamId;
      };
      const seqOf = async () => {
        const streamId = await streamOf();
        if (!streamId) return null;
        return (
          (
            await h.platform.sql.query<{ seq: string | null }>(
              `SELECT max(seq)::text AS seq FROM bus_messages WHERE topic = 'kesher.channelinbound' AND key = $1`,
              [streamId],
            )
          ).rows[0]?.seq ?? null
        );
      };
      await expect.poll(seqOf, within).not.toBeNull();
      const seq = BigInt((await seqOf())!);
      const offset = async () =>
        BigInt(
          (
            await h.platform.sql.query<{ seq: string }>(
              `SELECT coalesce(max(seq), 0)::text AS seq FROM bus_offsets WHERE group_id LIKE 'channels-inbound%' AND topic = 'kesher.channelinbound'`,
            )
          ).rows[0]!.seq,
        );
      await expect.poll(async () => (await offset()) >= seq, within).toBe(true);
    }

    const postedTexts = async () => {
      const texts: string[] = [];
      let after;
      for (;;) {
        const batch = await h.platform.eventStore.readAll({
          after,
          maxCount: 1000,
          filter: { eventTypes: ['MessagePosted'] },
        });
        texts.push(...batch.events.map((e) => (e.data as { text: string }).text));
        after = batch.next;
        if (batch.atEnd) return texts;
      }
    };

    it('a cancelled plan pauses Telegram (shown to the owner, nothing answered or counted); paying again resumes it', async () => {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer kindly.' },
      });
      const assistantId = created.json().assistant_id as number;
      await pay(owner.authorization);
      const bot = standIns.addBot('plan_following_bot');
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${assistantId}/telegram/setup`,
            headers: auth,
            payload: { bot_token: bot.token },
          })
        ).statusCode,
      ).toBe(200);
      const integration = async () =>
        (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/telegram`, headers: auth })).json();
      expect(await integration()).toMatchObject({ is_active: true, status: 'active', status_reason: null });

      await standIns.telegramUpdate(bot.token, telegramTextUpdate(8001, 7101, 'Hello, are you open today?'));
      await standIns.waitForSent(1, '7101');
      const usage = () => usageQueries(h.platform.sql).messagesInMonth(owner.accountId, usageMonth(new Date()));
      await expect.poll(usage, within).toBe(1);

      // Cancelled at once: the owner is on Free, the connection is kept and shown paused, with why.
      const cancelled = await h.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/cancel',
        headers: auth,
        payload: { immediately: true },
      });
      expect(cancelled.json()).toMatchObject({ tier: 'FREE' });
      expect(await integration()).toMatchObject({ is_active: true, status: 'paused', status_reason: PAUSED });

      await standIns.telegramUpdate(bot.token, telegramTextUpdate(8002, 7101, 'Are you open on Friday?'));
      await handled('Are you open on Friday?');
      expect(standIns.sent.filter((m) => m.to === '7101')).toHaveLength(1);
      expect(await postedTexts()).not.toContain('Are you open on Friday?');
      expect(await usage()).toBe(1);

      // Paid again: active, and the next message is answered.
      await pay(owner.authorization);
      expect(await integration()).toMatchObject({ status: 'active', status_reason: null });
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(8003, 7101, 'And on Saturday?'));
      await standIns.waitForSent(2, '7101');
      expect(await postedTexts()).toContain('And on Saturday?');
      await expect.poll(usage, within).toBe(2);
    });
  },
);
