import { plans, usageMonth, type ChannelMessageReceived } from '@kesher/contracts';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { postgresAvailability } from '../testing/test-database.js';
import {
  instagramTextDelivery,
  startChannelStandIns,
  telegramTextUpdate,
  whatsappStatusDelivery,
  whatsappTextDelivery,
  type ChannelStandIns,
} from './testing/channel-stand-ins.js';
import { freePort } from '../testing/processes.js';

const gate = await postgresAvailability();
const within = { timeout: 30_000, interval: 50 };
const APP_SECRET = 'meta-app-secret-for-tests';
/** The paid plan the owners here are on (API and channels worker alike), with a small monthly message limit to reach. */
const PAID = { ...plans.PRO, limits: { ...plans.PRO.limits, max_messages_per_month: 14 } };

const FACTS = [
  'Opening hours: the Kesher bakery is open Sunday to Thursday, 7:00 to 19:00.',
  'The sourdough loaf costs 24 shekels.',
  'Delivery in Tel Aviv costs 15 shekels and takes one day.',
  '',
].join('\n');

function multipart(filename: string, text: string) {
  const boundary = `----kesher${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

type Owner = { authorization: string; accountId: string; id: number };

describe.skipIf(!gate.available)(
  `channels: Telegram, WhatsApp, Instagram and the one inbox${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;
    let base: string;
    const freeOwners = new Set<string>();

    async function ownerWithFacts(): Promise<Owner> {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer from the files' },
      });
      const id = created.json().assistant_id as number;
      const { payload, headers } = multipart('bakery.txt', FACTS);
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${id}/upload_file`,
            headers: { ...headers, ...auth },
            payload,
          })
        ).statusCode,
      ).toBeLessThan(300);
      await expect
        .poll(
          async () => (await h.app.inject({ url: `/api/v1/assistants/${id}/files`, headers: auth })).json()[0]?.status,
          within,
        )
        .toBe('ready');
      return { ...owner, id };
    }

    const received = async () => {
      const all: ChannelMessageReceived[] = [];
      let after;
      for (;;) {
        const batch = await h.platform.eventStore.readAll({
          after,
          maxCount: 1000,
          filter: { eventTypes: ['ChannelMessageReceived'] },
        });
        all.push(...batch.events.map((e) => e.data as ChannelMessageReceived));
        after = batch.next;
        if (batch.atEnd) return all;
      }
    };
    const allEventsText = async () => {
      let text = '';
      let after;
      for (;;) {
        const batch = await h.platform.eventStore.readAll({ after, maxCount: 1000 });
        text += JSON.stringify(batch.events.map((e) => e.data));
        after = batch.next;
        if (batch.atEnd) return text;
      }
    };

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      h = await createApiHarness({
        env: {
          TELEGRAM_API_URL: standIns.urls.telegram,
          WHATSAPP_API_URL: standIns.urls.whatsapp,
          INSTAGRAM_API_URL: standIns.urls.instagram,
          META_APP_SECRET: APP_SECRET,
          PUBLIC_URL: base,
          CHANNEL_CHAT_PER_MINUTE: '8',
          CHANNEL_WEBHOOK_PER_MINUTE: '20',
        },
        // The channels worker counts customers' messages against the owner's plan (PAID: 14 a month).
        planOf: async (accountId) => (freeOwners.has(accountId) ? plans.FREE : PAID),
      });
      await h.app.listen({ port, host: '127.0.0.1' });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    it("Telegram: a refused token says Telegram's reason and records nothing; the free plan is refused; a good token connects the bot, masked", async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const missing = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().detail).toBe('Please enter the Bot Token');

      const wrong = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: { bot_token: '123456:AAwrongwrongwrongwrongwrong' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().detail).toBe('Failed to setup Telegram integration: Unauthorized');
      expect((await h.app.inject({ url: `/api/v1/assistants/${owner.id}/telegram`, headers: auth })).statusCode).toBe(
        404,
      );

      const free = await ownerWithFacts();
      freeOwners.add(free.accountId);
      const bot = standIns.addBot('free_bakery_bot');
      const refused = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${free.id}/telegram/setup`,
        headers: { authorization: free.authorization },
        payload: { bot_token: bot.token },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toMatch(/Telegram needs a paid plan/);
      expect(standIns.webhookOf(bot.token)).toBeUndefined();

      const good = standIns.addBot('crumb_bakery_bot');
      const setup = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: { bot_token: good.token },
      });
      expect(setup.statusCode).toBe(200);
      expect(setup.json()).toMatchObject({ success: true, bot_username: 'crumb_bakery_bot', is_active: true });
      const status = (await h.app.inject({ url: `/api/v1/assistants/${owner.id}/telegram`, headers: auth })).json();
      expect(status).toMatchObject({
        is_active: true,
        bot_username: 'crumb_bakery_bot',
        bot_token_masked: `********${good.token.slice(-4)}`,
      });
      expect(JSON.stringify(status)).not.toContain(good.token);
      // setWebhook pointed Telegram at this integration's address, with a secret token.
      const webhook = standIns.webhookOf(good.token)!;
      expect(webhook.url).toBe(status.webhook_url);
      expect(webhook.url.startsWith(`${base}/api/v1/channels/telegram/int_`)).toBe(true);
      expect(webhook.secretToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      // The dashboard card's Telegram button reads it from the assistant.
      const assistant = (await h.app.inject({ url: `/api/v1/assistants/${owner.id}`, headers: auth })).json();
      expect(assistant.telegram_integration).toEqual({ bot_username: 'crumb_bakery_bot' });
      // Sealed at rest: the log holds neither the token nor the webhook secret.
      const log = await allEventsText();
      expect(log).not.toContain(good.token);
      expect(log).not.toContain(webhook.secretToken);
    });

    it('Telegram: a customer is answered from the file; a missing or wrong secret is refused and records nothing; a redelivery is answered once', async () => {
      const owner = await ownerWithFacts();
      const bot = standIns.addBot('answers_bot');
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${owner.id}/telegram/setup`,
            headers: { authorization: owner.authorization },
            payload: { bot_token: bot.token },
          })
        ).statusCode,
      ).toBe(200);
      const before = (await received()).length;

      expect(
        (
          await standIns.telegramUpdate(bot.token, telegramTextUpdate(1, 501, 'How much is the sourdough loaf?'), {
            secretToken: null,
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await standIns.telegramUpdate(bot.token, telegramTextUpdate(1, 501, 'How much is the sourdough loaf?'), {
            secretToken: 'not-the-secret',
          })
        ).status,
      ).toBe(403);
      expect((await received()).length).toBe(before);

      const update = telegramTextUpdate(1, 501, 'How much is the sourdough loaf?');
      // Acknowledged at once, the answer sent on its own: no wall-clock bound here (the built-in engine answers
      // in milliseconds, so a bound could not tell the two apart; a busy machine could only make it fail).
      const first = await standIns.telegramUpdate(bot.token, update);
      expect(first.status).toBe(200);
      const [answer] = await standIns.waitForSent(1, '501');
      expect(answer!.text).toContain('24');
      expect(answer!.token).toBe(bot.token);

      // Telegram retries the same update (it did not see our 200): recorded once, answered once.
      expect((await standIns.telegramUpdate(bot.token, update)).status).toBe(200);
      expect((await standIns.telegramUpdate(bot.token, telegramTextUpdate(2, 501, 'When are you open?'))).status).toBe(
        200,
      );
      const answers = await standIns.waitForSent(2, '501');
      expect(answers[1]!.text).toMatch(/7:00|Sunday/);
      expect((await received()).filter((m) => m.chatId === '501')).toHaveLength(2);
      expect(standIns.sent.filter((m) => m.to === '501')).toHaveLength(2);
    });

    it('one inbox: the owner sees the Telegram conversation named, takes it over (the assistant stops, the reply goes out through Telegram) and hands it back', async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const bot = standIns.addBot('inbox_bot');
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: { bot_token: bot.token },
      });
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(10, 601, 'Do you deliver to Tel Aviv?', 'Noa'));
      await standIns.waitForSent(1, '601');
      // A conversation of the owner's own, too: the inbox lists every channel.
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: auth,
        payload: { assistant_id: owner.id },
      });

      await expect
        .poll(async () => (await h.app.inject({ url: '/api/v1/inbox', headers: auth })).json().data.length, within)
        .toBe(2);
      const inbox = (await h.app.inject({ url: '/api/v1/inbox', headers: auth })).json().data as {
        thread_id: string;
        channel: string;
        contact_name: string | null;
        taken_over: boolean;
        last_message: string;
      }[];
      const telegram = inbox.find((t) => t.channel === 'telegram')!;
      expect(telegram).toMatchObject({ contact_name: 'Noa', taken_over: false });
      expect(inbox.map((t) => t.channel).sort()).toEqual(['app', 'telegram']);
      const onlyTelegram = (await h.app.inject({ url: '/api/v1/inbox?channel=telegram', headers: auth })).json().data;
      expect(onlyTelegram).toHaveLength(1);

      // Replying before taking over is refused.
      const early = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${telegram.thread_id}/owner-reply`,
        headers: auth,
        payload: { content: 'Hi, this is Dana' },
      });
      expect(early.statusCode).toBe(409);

      const taken = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${telegram.thread_id}/takeover`,
        headers: auth,
      });
      expect(taken.json()).toEqual({ thread_id: telegram.thread_id, taken_over: true, channel: 'telegram' });
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(11, 601, 'Can I talk to a person?', 'Noa'));
      const reply = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${telegram.thread_id}/owner-reply`,
        headers: auth,
        payload: { content: 'Hi Noa, Dana from the bakery here.' },
      });
      expect(reply.statusCode).toBe(201);
      const sent = await standIns.waitForSent(2, '601');
      // The assistant did not answer the message sent while the owner had the conversation.
      expect(sent[1]!.text).toBe('Hi Noa, Dana from the bakery here.');
      // The conversation shows it all, in order.
      await expect
        .poll(
          async () =>
            (
              (await h.app.inject({ url: `/api/v1/threads/${telegram.thread_id}/messages`, headers: auth })).json()
                .data as unknown[]
            ).length,
          within,
        )
        .toBe(4);

      // A run asked for on a taken-over conversation is refused with a clear message.
      const handedBack = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${telegram.thread_id}/handback`,
        headers: auth,
      });
      expect(handedBack.json().taken_over).toBe(false);
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(12, 601, 'How much is delivery?', 'Noa'));
      const after = await standIns.waitForSent(3, '601');
      expect(after[2]!.text).toContain('15');
    });

    it("owners never see, change or receive each other's channels", async () => {
      const a = await ownerWithFacts();
      const b = await ownerWithFacts();
      const bot = standIns.addBot('isolated_bot');
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${a.id}/telegram/setup`,
        headers: { authorization: a.authorization },
        payload: { bot_token: bot.token },
      });
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(20, 701, 'Hello'));
      await standIns.waitForSent(1, '701');
      const asB = { authorization: b.authorization };
      expect((await h.app.inject({ url: `/api/v1/assistants/${a.id}/telegram`, headers: asB })).statusCode).toBe(404);
      expect(
        (await h.app.inject({ method: 'DELETE', url: `/api/v1/assistants/${a.id}/telegram`, headers: asB })).statusCode,
      ).toBe(404);
      expect((await h.app.inject({ url: `/api/v1/whatsapp/stats/${a.id}`, headers: asB })).statusCode).toBe(404);
      expect((await h.app.inject({ url: `/api/v1/inbox?assistant_id=${a.id}`, headers: asB })).statusCode).toBe(404);
      expect((await h.app.inject({ url: '/api/v1/inbox', headers: asB })).json().data).toEqual([]);
      const aInbox = (await h.app.inject({ url: '/api/v1/inbox', headers: { authorization: a.authorization } })).json()
        .data as { thread_id: string }[];
      const threadId = aInbox[0]!.thread_id;
      expect(
        (await h.app.inject({ method: 'POST', url: `/api/v1/threads/${threadId}/takeover`, headers: asB })).statusCode,
      ).toBe(404);
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/threads/${threadId}/owner-reply`,
            headers: asB,
            payload: { content: 'hijack' },
          })
        ).statusCode,
      ).toBe(404);
      expect((await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: asB })).statusCode).toBe(404);
      // B connecting the same bot to their own assistant does not read A's customers' conversations.
      expect(standIns.sent.filter((m) => m.text === 'hijack')).toHaveLength(0);
    });

    it('Telegram: disconnecting deletes the webhook; a late update for it is answered 200, ignored, and recorded nowhere', async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const bot = standIns.addBot('leaving_bot');
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: { bot_token: bot.token },
      });
      const webhook = standIns.webhookOf(bot.token)!;
      const removed = await h.app.inject({
        method: 'DELETE',
        url: `/api/v1/assistants/${owner.id}/telegram`,
        headers: auth,
      });
      expect(removed.json()).toEqual({ success: true, detail: 'Telegram integration disconnected' });
      expect(standIns.webhookOf(bot.token)).toBeUndefined();
      expect((await h.app.inject({ url: `/api/v1/assistants/${owner.id}/telegram`, headers: auth })).statusCode).toBe(
        404,
      );
      const before = (await received()).length;
      const late = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': webhook.secretToken },
        body: JSON.stringify(telegramTextUpdate(30, 801, 'Anyone there?')),
      });
      expect(late.status).toBe(200);
      expect((await received()).length).toBe(before);
      expect(
        (await h.app.inject({ url: `/api/v1/assistants/${owner.id}`, headers: auth })).json().telegram_integration,
      ).toBeNull();
    });

    it('WhatsApp: handshake, signature on every delivery, answers, delivery statuses and stats', async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const number = standIns.addWhatsAppNumber({
        phoneNumberId: '1098765432',
        display: '+972 50-123-4567',
        name: 'Crumb Bakery',
      });
      const missing = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/whatsapp/setup`,
        headers: auth,
        payload: { access_token: number.token },
      });
      expect(missing.json().detail).toBe('Please provide both Access Token and Phone Number ID.');
      const badToken = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/whatsapp/setup`,
        headers: auth,
        payload: { access_token: 'EAAGnope', phone_number_id: '1098765432' },
      });
      expect(badToken.json().detail).toBe(
        'Failed to setup WhatsApp integration: Invalid OAuth access token - Cannot parse access token',
      );

      const setup = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/whatsapp/setup`,
        headers: auth,
        payload: { access_token: number.token, phone_number_id: '1098765432' },
      });
      expect(setup.statusCode).toBe(200);
      const integration = setup.json().integration;
      expect(integration).toMatchObject({
        phone_number: '+972 50-123-4567',
        business_name: 'Crumb Bakery',
        is_active: true,
        access_token_masked: `********${number.token.slice(-4)}`,
      });
      const url = integration.webhook_url as string;

      const handshake = await fetch(
        `${url}?hub.mode=subscribe&hub.verify_token=${integration.webhook_verify_token}&hub.challenge=1158201444`,
      );
      expect(handshake.status).toBe(200);
      expect(await handshake.text()).toBe('1158201444');
      expect((await fetch(`${url}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)).status).toBe(403);

      const before = (await received()).length;
      const delivery = whatsappTextDelivery(
        '1098765432',
        '972501112233',
        'wamid.HBgM001',
        'How much is the sourdough loaf?',
      );
      expect((await standIns.metaDelivery(url, delivery, null)).status).toBe(401);
      expect((await standIns.metaDelivery(url, delivery, 'another-secret')).status).toBe(403);
      expect((await received()).length).toBe(before);

      expect((await standIns.metaDelivery(url, delivery, APP_SECRET)).status).toBe(200);
      expect((await standIns.metaDelivery(url, delivery, APP_SECRET)).status).toBe(200);
      const [answer] = await standIns.waitForSent(1, '972501112233');
      expect(answer!.text).toContain('24');

      // Meta reports what became of the answer; the latest status is kept.
      const reply = standIns.requests.findLast((r) => r.path === '/graph/v21.0/1098765432/messages');
      expect(reply?.body).toMatchObject({ messaging_product: 'whatsapp', to: '972501112233', type: 'text' });
      expect(reply?.authorization).toBe(`Bearer ${number.token}`);
      const integrationId = url.split('/').at(-2)!;
      await expect
        .poll(
          async () =>
            (
              await h.platform.sql.query<{ external_ids: string[] }>(
                `SELECT external_ids FROM channel_replies WHERE integration_id = $1`,
                [integrationId],
              )
            ).rows[0]?.external_ids.length,
          within,
        )
        .toBe(1);
      const wamid = (
        await h.platform.sql.query<{ external_ids: string[] }>(
          `SELECT external_ids FROM channel_replies WHERE integration_id = $1`,
          [integrationId],
        )
      ).rows[0]!.external_ids[0]!;
      expect(
        (
          await standIns.metaDelivery(
            url,
            whatsappStatusDelivery('1098765432', wamid, 'delivered', '972501112233'),
            APP_SECRET,
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await standIns.metaDelivery(
            url,
            whatsappStatusDelivery('1098765432', wamid, 'read', '972501112233'),
            APP_SECRET,
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await standIns.metaDelivery(
            url,
            whatsappStatusDelivery('1098765432', wamid, 'delivered', '972501112233'),
            APP_SECRET,
          )
        ).status,
      ).toBe(200);
      await expect
        .poll(
          async () =>
            (
              await h.platform.sql.query<{ status: string }>(
                `SELECT status FROM channel_statuses WHERE external_message_id = $1`,
                [wamid],
              )
            ).rows[0]?.status,
          within,
        )
        .toBe('read');

      await standIns.metaDelivery(
        url,
        whatsappTextDelivery('1098765432', '972509998877', 'wamid.HBgM002', 'When are you open?', 'Avi'),
        APP_SECRET,
      );
      await standIns.waitForSent(1, '972509998877');
      const stats = (await h.app.inject({ url: `/api/v1/whatsapp/stats/${owner.id}`, headers: auth })).json();
      expect(stats).toMatchObject({ total_chats: 2, active_chats: 2 });
      expect(stats.chats.map((c: { wa_id: string; profile_name: string }) => [c.wa_id, c.profile_name]).sort()).toEqual(
        [
          ['972501112233', 'Yael'],
          ['972509998877', 'Avi'],
        ],
      );
    });

    it("Instagram: a signed message is answered, an owner reply longer than Instagram's 1000 characters is split, stats list the chats", async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const account = standIns.addInstagramAccount({
        accountId: '17841400000000001',
        username: 'crumb.bakery',
        followers: 1234,
      });
      standIns.addInstagramUser('9001', 'noa.bakes');
      const missing = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/instagram/setup`,
        headers: auth,
        payload: { instagram_account_id: '17841400000000001' },
      });
      expect(missing.json().detail).toBe('Please provide both Page Access Token and Instagram Account ID.');
      const setup = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/instagram/setup`,
        headers: auth,
        payload: { page_access_token: account.token, instagram_account_id: '17841400000000001' },
      });
      expect(setup.statusCode).toBe(200);
      expect(setup.json().integration).toMatchObject({
        username: 'crumb.bakery',
        followers_count: 1234,
        is_active: true,
      });
      const url = setup.json().integration.webhook_url as string;

      expect(
        (
          await standIns.metaDelivery(
            url,
            instagramTextDelivery('17841400000000001', '9001', 'mid.1', 'How much is the sourdough loaf?'),
            'wrong',
          )
        ).status,
      ).toBe(403);
      expect(
        (
          await standIns.metaDelivery(
            url,
            instagramTextDelivery('17841400000000001', '9001', 'mid.1', 'How much is the sourdough loaf?'),
            APP_SECRET,
          )
        ).status,
      ).toBe(200);
      const [answer] = await standIns.waitForSent(1, '9001');
      expect(answer!.text).toContain('24');

      const inbox = (await h.app.inject({ url: '/api/v1/inbox?channel=instagram', headers: auth })).json().data as {
        thread_id: string;
      }[];
      await h.app.inject({ method: 'POST', url: `/api/v1/threads/${inbox[0]!.thread_id}/takeover`, headers: auth });
      const long = `${'Our sourdough is fermented for two days. '.repeat(60)}`.trim();
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/threads/${inbox[0]!.thread_id}/owner-reply`,
            headers: auth,
            payload: { content: long.slice(0, 2500) },
          })
        ).statusCode,
      ).toBe(201);
      const parts = (await standIns.waitForSent(4, '9001')).slice(1);
      expect(parts.every((p) => p.text.length <= 1000)).toBe(true);
      expect(parts.map((p) => p.text).join(' ')).toBe(long.slice(0, 2500).trim());

      const stats = (await h.app.inject({ url: `/api/v1/instagram/stats/${owner.id}`, headers: auth })).json();
      // The webhook carries only the sender's id: the name comes from Instagram's User Profile API.
      expect(stats).toMatchObject({
        total_chats: 1,
        active_chats: 1,
        chats: [{ instagram_user_id: '9001', username: 'noa.bakes' }],
      });
      expect(
        (await h.app.inject({ url: '/api/v1/inbox?channel=instagram', headers: auth })).json().data[0].contact_name,
      ).toBe('noa.bakes');
    });

    it('a flooding chat is answered at the allowed pace while another chat is answered at once', async () => {
      const owner = await ownerWithFacts();
      const bot = standIns.addBot('flooded_bot');
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: { authorization: owner.authorization },
        payload: { bot_token: bot.token },
      });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          standIns.telegramUpdate(bot.token, telegramTextUpdate(100 + i, 901, `Price of bread? ${i}`)),
        ),
      );
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(200, 902, 'When are you open?'));
      await standIns.waitForSent(1, '902');
      // Every flood message is recorded in the conversation; only a few get answers (the burst).
      await expect.poll(async () => (await received()).filter((m) => m.chatId === '901').length, within).toBe(12);
      // The inbox is a read model: it lists both chats once the projector has them.
      await expect
        .poll(
          async () =>
            (
              await h.app.inject({
                url: '/api/v1/inbox?channel=telegram',
                headers: { authorization: owner.authorization },
              })
            ).json().data.length,
          within,
        )
        .toBe(2);
      await standIns.waitForSent(1, '901');
      expect(standIns.sent.filter((m) => m.to === '901').length).toBeLessThanOrEqual(3);
    });

    it('bad input is a 4xx with a clear text, never a 5xx; the calls are in the OpenAPI document', async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      for (const payload of [[], 'text', { bot_token: 42 }, { bot_token: '   ' }]) {
        const response = await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${owner.id}/telegram/setup`,
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().detail).toBe('Please enter the Bot Token');
      }
      const badId = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/whatsapp/setup`,
        headers: auth,
        payload: { access_token: 'EAAG', phone_number_id: 'not-digits' },
      });
      expect(badId.statusCode).toBe(400);
      expect((await h.app.inject({ url: '/api/v1/assistants/abc/telegram', headers: auth })).statusCode).toBe(422);
      expect((await h.app.inject({ url: '/api/v1/assistants/999999/telegram', headers: auth })).statusCode).toBe(404);
      expect((await h.app.inject({ url: `/api/v1/assistants/${owner.id}/telegram` })).statusCode).toBe(401);
      expect((await h.app.inject({ url: '/api/v1/inbox?channel=fax', headers: auth })).statusCode).toBe(422);
      expect(
        (await h.app.inject({ method: 'POST', url: '/api/v1/threads/bad id!/takeover', headers: auth })).statusCode,
      ).toBe(400);

      // Webhooks: an unknown connection, a malformed id, a signed body that is not JSON, an unsigned one of another type.
      expect(
        (
          await fetch(`${base}/api/v1/channels/telegram/int_${'0'.repeat(32)}/webhook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await fetch(`${base}/api/v1/channels/telegram/nope/webhook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(422);
      const number = standIns.addWhatsAppNumber({ phoneNumberId: '2020202', display: '+1', name: 'Bad Input' });
      const url = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${owner.id}/whatsapp/setup`,
          headers: auth,
          payload: { access_token: number.token, phone_number_id: '2020202' },
        })
      ).json().integration.webhook_url as string;
      const { metaSignature } = await import('./meta/meta-signature.js');
      const notJson = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature('{not json', APP_SECRET) },
        body: '{not json',
      });
      expect(notJson.status).toBe(400);
      expect(((await notJson.json()) as { detail: string }).detail).toBe('The request body is not valid JSON.');
      expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' })).status).toBe(
        401,
      );
      const other = await standIns.metaDelivery(url, { object: 'page', entry: [] }, APP_SECRET);
      expect(other.status).toBe(200);

      const openapi = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
      for (const path of [
        '/api/v1/assistants/{id}/telegram/setup',
        '/api/v1/assistants/{id}/whatsapp',
        '/api/v1/instagram/stats/{id}',
        '/api/v1/inbox',
        '/api/v1/threads/{threadId}/owner-reply',
      ]) {
        expect(openapi.paths[path], path).toBeDefined();
      }
    });

    it("over the plan's monthly message limit, a customer's message is not recorded and the customer is told", async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const bot = standIns.addBot('busy_bot');
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: { bot_token: bot.token },
      });
      // The month counts answered messages (chat.md): fourteen customers, one question each, all answered.
      await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          standIns.telegramUpdate(bot.token, telegramTextUpdate(300 + i, 2101 + i, `Question ${i}`)),
        ),
      );
      const inbox = async () =>
        (await h.app.inject({ url: '/api/v1/inbox', headers: auth })).json().data as { thread_id: string }[];
      await expect.poll(async () => (await inbox()).length, within).toBe(14);
      // The month's usage (what the worker checks) has counted them.
      await expect
        .poll(() => usageQueries(h.platform.sql).messagesInMonth(owner.accountId, usageMonth(new Date())), within)
        .toBe(14);

      await standIns.telegramUpdate(bot.token, telegramTextUpdate(400, 1102, 'One more?'));
      const [notice] = await standIns.waitForSent(1, '1102');
      // A customer is a visitor: told neutrally, never to upgrade the owner's plan (issue 21 item 12).
      expect(notice!.text).toBe('This assistant is not available right now. Please try again later.');
      expect(await inbox()).toHaveLength(14);
    });

    it('a connection posting more than its deliveries a minute gets 429 (the channel retries later); another connection is unaffected', async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const noisy = standIns.addBot('noisy_bot');
      const quiet = standIns.addBot('quiet_bot');
      const other = await ownerWithFacts();
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${owner.id}/telegram/setup`,
        headers: auth,
        payload: { bot_token: noisy.token },
      });
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${other.id}/telegram/setup`,
        headers: { authorization: other.authorization },
        payload: { bot_token: quiet.token },
      });
      // Wrong secrets cost the same as right ones: nobody can make a connection's deliveries cheap to refuse.
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++)
        statuses.push(
          (await standIns.telegramUpdate(noisy.token, { update_id: 900 + i }, { secretToken: 'wrong' })).status,
        );
      expect(statuses.slice(0, 20).every((status) => status === 403)).toBe(true);
      expect(statuses[20]).toBe(429);
      expect((await standIns.telegramUpdate(quiet.token, telegramTextUpdate(950, 1201, 'Hello'))).status).toBe(200);
    });

    it("a widget visitor's conversation taken over: the assistant is refused with why, the owner's reply is in the visitor's thread", async () => {
      const owner = await ownerWithFacts();
      const auth = { authorization: owner.authorization };
      const shareToken = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${owner.id}/generate-share-token`,
          headers: auth,
        })
      ).json().share_token as string;
      const externalId = (await h.app.inject({ url: `/api/v1/assistants/${owner.id}`, headers: auth })).json()
        .openai_assistant_id as string;
      const session = 'e'.repeat(64);
      const started = await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/public',
        payload: { assistant_id: owner.id, share_token: shareToken, session_token: session, channel: 'embed' },
      });
      expect(started.statusCode).toBe(201);
      const threadId = started.json().thread_id as string;
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/public/${threadId}/messages`,
        payload: { content: 'Can someone call me?', session_token: session },
      });

      await expect
        .poll(
          async () =>
            ((await h.app.inject({ url: '/api/v1/inbox?channel=embed', headers: auth })).json().data as unknown[])
              .length,
          within,
        )
        .toBe(1);
      expect(
        (await h.app.inject({ method: 'POST', url: `/api/v1/threads/${threadId}/takeover`, headers: auth })).json()
          .taken_over,
      ).toBe(true);
      const refused = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/public/${threadId}/runs`,
        payload: { assistant_id: externalId, session_token: session },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe(
        'The owner has taken over this conversation; the assistant does not answer it until it is handed back.',
      );

      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/threads/${threadId}/owner-reply`,
            headers: auth,
            payload: { content: 'Sure, I will call you in 5 minutes.' },
          })
        ).statusCode,
      ).toBe(201);
      const seen = (
        await h.app.inject({ url: `/api/v1/threads/public/${threadId}/messages?session_token=${session}` })
      ).json().data as { role: string; run_id: string | null; content: { text: { value: string } }[] }[];
      expect(seen.map((m) => [m.role, m.run_id, m.content[0]!.text.value])).toEqual([
        ['user', null, 'Can someone call me?'],
        ['assistant', null, 'Sure, I will call you in 5 minutes.'],
      ]);
    });
  },
);
