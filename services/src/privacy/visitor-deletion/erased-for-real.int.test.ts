import { plans } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAssistant } from '../../testing/owner-assistant.js';
import {
  startChannelStandIns,
  telegramTextUpdate,
  type ChannelStandIns,
} from '../../channels/testing/channel-stand-ins.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { freePort } from '../../testing/processes.js';
import { kafkaAvailability } from '../../testing/kafka.js';
import { postgresAvailability } from '../../testing/test-database.js';

const postgres = await postgresAvailability();
// On the production bus: the customer's messages, the answers and the erasures go through a real Kafka broker.
const gate = postgres.available ? await kafkaAvailability() : postgres;
const DAY = 24 * 3600 * 1000;
const within = { timeout: 20_000, interval: 100 };

/**
 * The privacy features with the deployment's own subject erasure (privacy/erasure, crypto-shredding):
 * what a visitor deleted, what retention erased and what a channel customer's /forget erased is no longer
 * readable by the owner — through Chat History, the export or the read models' tables — while what was
 * not erased still is. On Postgres and a real Kafka broker.
 */
describe.skipIf(!gate.available)(`erased for real${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let standIns: ChannelStandIns;
  let now = new Date('2026-03-01T08:00:00.000Z');

  beforeAll(async () => {
    standIns = await startChannelStandIns();
    const port = await freePort();
    h = await createApiHarness({
      bus: 'kafka',
      env: { TELEGRAM_API_URL: standIns.urls.telegram, PUBLIC_URL: `http://127.0.0.1:${port}` },
      planOf: async () => plans.PRO,
      clock: () => now,
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
  /** What the owner's Download my data holds, as one text (the zip's entries, not its deflated bytes). */
  async function exportText(auth: Record<string, string>) {
    const { unzipSync, strFromU8 } = await import('fflate');
    const zip = unzipSync(
      new Uint8Array((await h.app.inject({ url: '/api/v1/auth/me/export', headers: auth })).rawPayload),
    );
    return Object.values(zip)
      .map((bytes) => strFromU8(bytes))
      .join('\n');
  }
  const readModelText = async () =>
    JSON.stringify(
      (
        await h.platform.sql.query(
          `SELECT t.title, t.contact_name, m.text FROM threads t LEFT JOIN thread_messages m ON m.thread_id = t.id`,
        )
      ).rows,
    );

  it("a visitor's deleted conversation can no longer be read by the owner; another visitor's still can", async () => {
    const { auth, assistant } = await ownerWithAssistant();
    const share = (
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${assistant.assistant_id}/generate-share-token`,
        headers: auth,
      })
    ).json();
    const visit = async (session: string, text: string) => {
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
            payload: { content: text, session_token: session },
          })
        ).statusCode,
      ).toBe(201);
      return thread;
    };
    const gone = await visit('first-visitor-session-token-000001', 'Call me at 050-1111111 about a cake');
    await visit('second-visitor-session-token-00002', 'Do you sell rye bread?');
    await expect.poll(() => exportText(auth), within).toContain('050-1111111');

    expect(
      (
        await h.app.inject({
          method: 'DELETE',
          url: `/api/v1/threads/public/${gone}?session_token=first-visitor-session-token-000001`,
        })
      ).statusCode,
    ).toBe(204);
    await expect.poll(() => exportText(auth), within).not.toContain('050-1111111');
    expect(await readModelText()).not.toContain('050-1111111');
    expect(await exportText(auth)).toContain('Do you sell rye bread?');
  });

  it('retention erases a conversation of 91 days and keeps one of 89', async () => {
    const { auth, assistant } = await ownerWithAssistant();
    const talk = async (text: string) => {
      const thread = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers: auth,
          payload: { assistant_id: assistant.assistant_id },
        })
      ).json().thread_id as string;
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/threads/${thread}/messages`,
            headers: auth,
            payload: { content: text },
          })
        ).statusCode,
      ).toBe(201);
    };
    await talk('Old question about wedding cakes');
    now = new Date(now.getTime() + 2 * DAY);
    await talk('Newer question about birthday cakes');
    await expect.poll(() => exportText(auth), within).toContain('Newer question about birthday cakes');

    now = new Date(now.getTime() + 89 * DAY);
    await h.workers.privacy.retention.tick();
    await expect.poll(() => exportText(auth), within).not.toContain('Old question about wedding cakes');
    expect(await exportText(auth)).toContain('Newer question about birthday cakes');
    expect(await readModelText()).not.toContain('Old question about wedding cakes');
  });

  it("a Telegram customer's /forget erases their name and messages from the owner's view", async () => {
    // The channels worker reads the real time (deadlines of its runs): the backend's clock goes back to it.
    now = new Date();
    const { auth, assistant } = await ownerWithAssistant();
    const bot = standIns.addBot('erase_for_real_bot');
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
    await standIns.telegramUpdate(bot.token, telegramTextUpdate(1, 8101, 'My address is 12 Herzl Street', 'Zohar'));
    await standIns.waitForSent(1, '8101');
    await expect.poll(() => exportText(auth), within).toContain('12 Herzl Street');
    expect(await exportText(auth)).toContain('Zohar');

    await standIns.telegramUpdate(bot.token, telegramTextUpdate(2, 8101, '/forget', 'Zohar'));
    await standIns.waitForSent(2, '8101');
    await standIns.telegramUpdate(bot.token, telegramTextUpdate(3, 8101, 'yes', 'Zohar'));
    await standIns.waitForSent(3, '8101');
    await expect.poll(() => exportText(auth), within).not.toContain('12 Herzl Street');
    expect(await exportText(auth)).not.toContain('Zohar');
    expect(await readModelText()).not.toMatch(/Herzl|Zohar/);
  });
});
