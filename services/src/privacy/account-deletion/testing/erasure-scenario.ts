import { randomBytes } from 'node:crypto';
import { TEST_CARDS } from '@kesher/contracts';
import { expect } from 'vitest';
import { telegramTextUpdate, type ChannelStandIns } from '../../../channels/testing/channel-stand-ins.js';
import type { ApiHarness } from '../../../testing/api-harness.js';

export const SCENARIO_PASSWORD = 'Str0ng-Passw0rd!';
const within = { timeout: 60_000, interval: 100 };

/**
 * Issue 24's scenario, shared by the done-when tests (Postgres + Kafka, and the embedded default): an
 * owner on a paid plan with a knowledge file, a visitor's conversation through a share link, and a
 * Telegram customer's through the stand-in, answered. Every personal text is unique to the run, so a
 * search of any copy finds exactly this run's.
 */
export async function erasureScenario(h: ApiHarness, standIns: ChannelStandIns) {
  const run = randomBytes(4).toString('hex');
  const secrets = {
    email: `erasable-${run}@example.com`,
    visitorText: `visitor question ${run}`,
    customerText: `telegram question ${run}`,
    customerName: `Customername${run}`,
    fileText: `knowledge line ${run}`,
    cardHolder: `Cardholder${run}`,
  };
  const owner = await h.owner(secrets.email);
  const auth = { authorization: owner.authorization };
  const assistantId = (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/assistants/',
      headers: auth,
      payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer kindly.' },
    })
  ).json().assistant_id as number;

  // Paid, so Telegram is included (and there is a subscription to cancel, and a payment record to keep).
  const checkout = await h.app.inject({
    method: 'POST',
    url: '/api/v1/subscriptions/checkout',
    headers: auth,
    payload: { tier: 'pro', billing_period: 'monthly' },
  });
  const params = Object.fromEntries(new URL(checkout.json().url, 'http://x').searchParams);
  const form = new URLSearchParams({
    ...params,
    card_number: TEST_CARDS.success,
    card_holder: secrets.cardHolder,
    expiry: '12/30',
    cvv: '123',
  });
  const paid = await h.app.inject({
    method: 'POST',
    url: '/api/v1/subscriptions/tranzila-mock',
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(paid.json().status, paid.body).toBe('success');

  // A knowledge file: its bytes are in the blob store.
  const boundary = `----kesher${run}`;
  const upload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(Array.from({ length: 50 }, () => secrets.fileText).join('\n')),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await h.app.inject({
    method: 'POST',
    url: `/api/v1/assistants/${assistantId}/upload_file`,
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: upload,
  });
  expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);

  // A visitor through the share link.
  const share = (
    await h.app.inject({
      method: 'POST',
      url: `/api/v1/assistants/${assistantId}/generate-share-token`,
      headers: auth,
    })
  ).json();
  const session = randomBytes(32).toString('hex');
  const visitorThread = (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/threads/public',
      payload: { assistant_id: assistantId, share_token: share.share_token, session_token: session },
    })
  ).json().thread_id as string;
  const posted = await h.app.inject({
    method: 'POST',
    url: `/api/v1/threads/public/${visitorThread}/messages`,
    payload: { content: secrets.visitorText, session_token: session },
  });
  expect(posted.statusCode, posted.body).toBeLessThan(300);

  // A Telegram customer through the stand-in, answered.
  const bot = standIns.addBot(`erasure_${run}_bot`);
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
  await standIns.telegramUpdate(bot.token, telegramTextUpdate(9001, 7301, secrets.customerText, secrets.customerName));
  // The answer goes through the channels worker's Kafka consumer group: its first join is slow on a loaded machine.
  await standIns.waitForSent(1, '7301', 180_000);
  await expect
    .poll(
      async () => (await h.platform.sql.query(`SELECT 1 FROM channel_chats WHERE chat_id = '7301'`)).rows.length,
      within,
    )
    .toBe(1);

  return { run, owner, auth, assistantId, bot, visitorThread, secrets };
}

/** "Delete my account" with the password, answered 200. */
export async function deleteAccount(h: ApiHarness, auth: { authorization: string }) {
  const deleted = await h.app.inject({
    method: 'DELETE',
    url: '/api/v1/auth/me',
    headers: auth,
    payload: { password: SCENARIO_PASSWORD },
  });
  expect(deleted.statusCode, deleted.body).toBe(200);
}
