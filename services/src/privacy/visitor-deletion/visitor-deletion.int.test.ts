import { plans, type ChannelMessageReceived } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAssistant } from '../../testing/owner-assistant.js';
import {
  startChannelStandIns,
  telegramTextUpdate,
  whatsappTextDelivery,
  type ChannelStandIns,
} from '../../channels/testing/channel-stand-ins.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { freePort } from '../../testing/processes.js';
import { postgresAvailability } from '../../testing/test-database.js';
import type { DataSubject, ErasureCause, SubjectErasure } from '../subject-erasure.port.js';
import { createChannelForget, forgetTexts } from './channel-forget.js';
import { createSecurityLog } from '../security-log/security-log.js';

const gate = await postgresAvailability();
const within = { timeout: 30_000, interval: 50 };
const APP_SECRET = 'meta-app-secret-for-forget-tests';

/**
 * A visitor deleting their own conversation (the public route, authorised by their session token) and a
 * Telegram customer's /forget through the Telegram stand-in, on the whole backend. The test sees which
 * subject reaches the erasure and why; what an erasure does is the erasure's own tests'.
 */
describe.skipIf(!gate.available)(
  `visitors delete their own data${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;
    const erased: { subject: DataSubject; why: ErasureCause }[] = [];
    const erasure: SubjectErasure = { erase: async (subject, why) => void erased.push({ subject, why }) };

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      h = await createApiHarness({
        env: {
          TELEGRAM_API_URL: standIns.urls.telegram,
          WHATSAPP_API_URL: standIns.urls.whatsapp,
          META_APP_SECRET: APP_SECRET,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
        },
        planOf: async () => plans.PRO,
        erasure,
      });
      await h.app.listen({ port, host: '127.0.0.1' });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    async function ownerWithAssistant() {
      return ownerAssistant(h, { name: 'Bakery', description: 'The bakery', instructions: 'Answer briefly' });
    }

    it('a visitor deletes their own conversation with its session token; another token, an owner thread or a bad id cannot', async () => {
      const { owner, auth, assistant } = await ownerWithAssistant();
      const share = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${assistant.assistant_id}/generate-share-token`,
          headers: auth,
        })
      ).json();
      const session = 'visitor-session-token-for-deletion-0001';
      const thread = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/public',
          payload: { assistant_id: assistant.assistant_id, share_token: share.share_token, session_token: session },
        })
      ).json().thread_id as string;
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/threads/public/${thread}/messages`,
            payload: { content: 'My phone is 050-1234567', session_token: session },
          })
        ).statusCode,
      ).toBe(201);

      // Not theirs: 404 as reading it would be, and nothing erased.
      const stranger = await h.app.inject({
        method: 'DELETE',
        url: `/api/v1/threads/public/${thread}?session_token=another-visitor-token-000000000`,
        headers: {},
      });
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json()).toMatchObject({ detail: 'THREAD_NOT_FOUND' });
      const ownThread = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers: auth,
          payload: { assistant_id: assistant.assistant_id },
        })
      ).json().thread_id as string;
      expect(
        (await h.app.inject({ method: 'DELETE', url: `/api/v1/threads/public/${ownThread}?session_token=${session}` }))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await h.app.inject({
            method: 'DELETE',
            url: `/api/v1/threads/public/not%20a%20thread?session_token=${session}`,
          })
        ).statusCode,
      ).toBe(400);
      const noToken = await h.app.inject({ method: 'DELETE', url: `/api/v1/threads/public/${thread}` });
      expect(noToken.statusCode).toBeGreaterThanOrEqual(400);
      expect(noToken.statusCode).toBeLessThan(500);
      expect(erased).toEqual([]);

      const deleted = await h.app.inject({
        method: 'DELETE',
        url: `/api/v1/threads/public/${thread}?session_token=${session}`,
      });
      expect(deleted.statusCode).toBe(204);
      expect(erased).toEqual([
        {
          subject: { kind: 'thread', threadId: thread },
          why: { reason: 'visitor_request', actor: expect.stringMatching(/^visitor:[0-9a-f]{64}$/) },
        },
      ]);

      // The owner's security log says a visitor deleted a conversation (which one and where, not what it said).
      const log = (await h.app.inject({ url: '/api/v1/auth/me/security-log', headers: auth })).json().entries;
      expect(log).toEqual([
        expect.objectContaining({
          kind: 'conversation_erased',
          actor: 'visitor',
          detail: { thread_id: thread, channel: 'public_link', assistant_id: expect.any(String) },
        }),
      ]);
      expect(JSON.stringify(log)).not.toContain('050-1234567');
      expect(owner.accountId).toBeTruthy();
    });

    it('a Telegram customer writes /forget, is asked to confirm, answers "yes", and their contact is erased; neither message reaches the assistant', async () => {
      erased.length = 0;
      const { auth, assistant } = await ownerWithAssistant();
      const bot = standIns.addBot('forget_bakery_bot');
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${assistant.assistant_id}/telegram/setup`,
            headers: auth,
            payload: { bot_token: bot.token },
          })
        ).statusCode,
      ).toBe(200);

      expect((await standIns.telegramUpdate(bot.token, telegramTextUpdate(1, 7001, '/forget', 'Noa'))).status).toBe(
        200,
      );
      const [ask] = await standIns.waitForSent(1, '7001');
      expect(ask!.text).toBe(forgetTexts.ask.en);
      expect(erased).toEqual([]);

      expect((await standIns.telegramUpdate(bot.token, telegramTextUpdate(2, 7001, 'Yes', 'Noa'))).status).toBe(200);
      const replies = await standIns.waitForSent(2, '7001');
      expect(replies[1]!.text).toBe(forgetTexts.done.en);
      const received = await receivedMessages();
      const integrationId = received.find((m) => m.chatId === '7001')!.integrationId;
      expect(erased).toEqual([
        {
          subject: { kind: 'channel_contact', integrationId, chatId: '7001' },
          why: { reason: 'visitor_request', actor: 'channel_customer:telegram' },
        },
      ]);

      // Neither /forget nor the confirmation became a question in a conversation.
      const threads = await h.platform.sql.query(
        `SELECT 1 FROM threads WHERE assistant_owner_id = (SELECT owner_id FROM assistants WHERE numeric_id = $1)`,
        [assistant.assistant_id],
      );
      expect(threads.rows).toEqual([]);
      const log = (await h.app.inject({ url: '/api/v1/auth/me/security-log', headers: auth })).json().entries;
      expect(log).toEqual([
        expect.objectContaining({
          kind: 'channel_contact_erased',
          actor: 'channel_customer',
          detail: { channel: 'telegram', integration_id: integrationId },
        }),
      ]);
    });

    it('in Hebrew too; and a "yes" with no request pending is an ordinary message for the assistant', async () => {
      erased.length = 0;
      const { auth, assistant } = await ownerWithAssistant();
      const bot = standIns.addBot('forget_he_bot');
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${assistant.assistant_id}/telegram/setup`,
            headers: auth,
            payload: { bot_token: bot.token },
          })
        ).statusCode,
      ).toBe(200);

      await standIns.telegramUpdate(bot.token, telegramTextUpdate(1, 7002, 'מחקו את המידע שלי', 'נועה'));
      expect((await standIns.waitForSent(1, '7002'))[0]!.text).toBe(forgetTexts.ask.he);
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(2, 7002, 'כן', 'נועה'));
      expect((await standIns.waitForSent(2, '7002'))[1]!.text).toBe(forgetTexts.done.he);
      expect(erased.map((e) => e.subject.kind)).toEqual(['channel_contact']);

      await standIns.telegramUpdate(bot.token, telegramTextUpdate(3, 7003, 'yes', 'Omer'));
      await expect
        .poll(
          async () =>
            (
              await h.platform.sql.query(
                `SELECT 1 FROM thread_messages m JOIN threads t ON t.id = m.thread_id WHERE t.contact_name = 'Omer'`,
              )
            ).rows.length,
          within,
        )
        .toBeGreaterThan(0);
      expect(erased).toHaveLength(1);
    });

    it('a WhatsApp customer writes "delete my data" and confirms; their contact is erased', async () => {
      erased.length = 0;
      const { auth, assistant } = await ownerWithAssistant();
      const number = standIns.addWhatsAppNumber({
        phoneNumberId: '5550001',
        display: '+972 50-555-0001',
        name: 'Forget Bakery',
      });
      const setup = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${assistant.assistant_id}/whatsapp/setup`,
        headers: auth,
        payload: { access_token: number.token, phone_number_id: '5550001' },
      });
      expect(setup.statusCode).toBe(200);
      const url = setup.json().integration.webhook_url as string;
      expect(
        (
          await standIns.metaDelivery(
            url,
            whatsappTextDelivery('5550001', '972527770000', 'wamid.FORGET1', 'Delete my data'),
            APP_SECRET,
          )
        ).status,
      ).toBe(200);
      expect((await standIns.waitForSent(1, '972527770000'))[0]!.text).toBe(forgetTexts.ask.en);
      await standIns.metaDelivery(
        url,
        whatsappTextDelivery('5550001', '972527770000', 'wamid.FORGET2', 'yes'),
        APP_SECRET,
      );
      expect((await standIns.waitForSent(2, '972527770000'))[1]!.text).toBe(forgetTexts.done.en);
      expect(erased).toEqual([
        {
          subject: { kind: 'channel_contact', integrationId: url.split('/').at(-2), chatId: '972527770000' },
          why: { reason: 'visitor_request', actor: 'channel_customer:whatsapp' },
        },
      ]);
    });

    it('the same confirmation delivered again is answered as done; a later "yes" is an ordinary message; a late one erases nothing', async () => {
      erased.length = 0;
      let now = new Date('2026-05-01T10:00:00.000Z');
      const securityLog = createSecurityLog({ sql: h.platform.sql, clock: () => now });
      const forget = createChannelForget({ sql: h.platform.sql, erasure, securityLog, clock: () => now });
      const owner = await h.owner();
      const from = {
        integrationId: 'int_redelivery',
        chatId: '42',
        ownerId: owner.accountId,
        kind: 'telegram' as const,
      };
      expect(await forget.handle({ ...from, text: '/forget' }, 'delivery-1')).toBe(forgetTexts.ask.en);
      expect(await forget.handle({ ...from, text: 'yes' }, 'delivery-2')).toBe(forgetTexts.done.en);
      expect(await forget.handle({ ...from, text: 'yes' }, 'delivery-2')).toBe(forgetTexts.done.en);
      expect(await forget.handle({ ...from, text: 'yes' }, 'delivery-3')).toBeUndefined();
      expect((await securityLog.list(owner.accountId)).map((e) => e.kind)).toEqual(['channel_contact_erased']);
      expect(erased.every((e) => e.subject.kind === 'channel_contact')).toBe(true);

      // Asked again, confirmed 11 minutes later: too late, nothing erased, the "yes" goes to the assistant.
      erased.length = 0;
      expect(await forget.handle({ ...from, text: '/forget' }, 'delivery-4')).toBe(forgetTexts.ask.en);
      now = new Date(now.getTime() + 11 * 60_000);
      expect(await forget.handle({ ...from, text: 'yes' }, 'delivery-5')).toBeUndefined();
      expect(erased).toEqual([]);
    });

    async function receivedMessages() {
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
    }
  },
);
