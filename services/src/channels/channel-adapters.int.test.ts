import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelApiError } from './channel-api-error.js';
import { createChannelAdapters } from './channel-adapters.js';
import type { ChannelSecrets } from './channel.port.js';
import { startChannelStandIns, type ChannelStandIns } from './testing/channel-stand-ins.js';

/** The adapters against local stand-ins of the three APIs: the calls they make, and what they make of refusals. */
describe('channel adapters', () => {
  let standIns: ChannelStandIns;
  let adapters: ReturnType<typeof createChannelAdapters>;
  beforeAll(async () => {
    standIns = await startChannelStandIns();
    adapters = createChannelAdapters(standIns.urls);
  });
  afterAll(async () => standIns?.close());

  const secrets = (token: string): ChannelSecrets => ({ token, webhookSecret: 'secret_Token-1', appSecret: null });
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChannelApiError);
    return error as ChannelApiError;
  };

  it('Telegram: getMe then setWebhook with the secret token; sendMessage as plain text; deleteWebhook', async () => {
    const bot = standIns.addBot('wire_bot');
    const { account, token } = await adapters.telegram.connect(
      { kind: 'telegram', botToken: bot.token },
      { url: 'https://kesher.example/hook', secret: 'secret_Token-1' },
    );
    expect(account).toEqual({ kind: 'telegram', botId: bot.id, botUsername: 'wire_bot' });
    expect(token).toBe(bot.token);
    expect(standIns.webhookOf(bot.token)).toEqual({
      url: 'https://kesher.example/hook',
      secretToken: 'secret_Token-1',
    });
    const setWebhook = standIns.requests.find((r) => r.path === `/telegram/bot${bot.token}/setWebhook`);
    expect(setWebhook?.body).toMatchObject({ allowed_updates: ['message'], drop_pending_updates: true });

    // Markdown characters travel as they are: no parse_mode, so nothing is read as formatting.
    const id = await adapters.telegram.send(account, secrets(bot.token), '42', 'Price: *24* shekels_ [see](x)');
    expect(id).toMatch(/^\d+$/);
    expect(standIns.sent.at(-1)).toMatchObject({
      channel: 'telegram',
      to: '42',
      text: 'Price: *24* shekels_ [see](x)',
    });

    await adapters.telegram.disconnect(account, secrets(bot.token));
    expect(standIns.webhookOf(bot.token)).toBeUndefined();
  });

  it("Telegram: a wrong token, a blocked chat and a 429 carry Telegram's own words", async () => {
    const wrong = await refusal(
      adapters.telegram.connect(
        { kind: 'telegram', botToken: '123:AAwrongwrongwrongwrongwrongwrong' },
        { url: 'https://k.example/h', secret: 's' },
      ),
    );
    expect(wrong).toMatchObject({ status: 401, reason: 'Unauthorized' });
    expect(wrong.rejectsCredentials).toBe(true);
    expect(
      await refusal(
        adapters.telegram.connect(
          { kind: 'telegram', botToken: 'not a token' },
          { url: 'https://k.example/h', secret: 's' },
        ),
      ),
    ).toMatchObject({ status: 404, reason: 'Not Found' });

    const bot = standIns.addBot('blocked_bot');
    const account = { kind: 'telegram' as const, botId: bot.id, botUsername: 'blocked_bot' };
    standIns.block('666');
    expect(await refusal(adapters.telegram.send(account, secrets(bot.token), '666', 'hi'))).toMatchObject({
      status: 403,
      reason: 'Forbidden: bot was blocked by the user',
    });
    standIns.throttleNext(1, 3);
    expect(await refusal(adapters.telegram.send(account, secrets(bot.token), '1', 'hi'))).toMatchObject({
      status: 429,
      retryAfterSeconds: 3,
    });
    expect(await refusal(adapters.telegram.send(account, secrets(bot.token), '1', 'x'.repeat(4097)))).toMatchObject({
      status: 400,
      reason: 'Bad Request: message is too long',
    });
  });

  it('WhatsApp: the number read with the token, texts sent to /{phone-number-id}/messages, Meta errors passed on', async () => {
    const number = standIns.addWhatsAppNumber({
      phoneNumberId: '5550001',
      display: '+1 555-0001',
      name: 'Wire Bakery',
    });
    const { account } = await adapters.whatsapp.connect(
      {
        kind: 'whatsapp',
        accessToken: number.token,
        phoneNumberId: '5550001',
        businessAccountId: 'WABA9',
        testNumber: null,
        appSecret: null,
      },
      { url: 'https://k.example/h', secret: 'verify' },
    );
    expect(account).toEqual({
      kind: 'whatsapp',
      phoneNumberId: '5550001',
      phoneNumber: '+1 555-0001',
      businessName: 'Wire Bakery',
      businessAccountId: 'WABA9',
      testNumber: null,
    });
    const id = await adapters.whatsapp.send(account, secrets(number.token), '972500000001', 'Hello');
    expect(id).toMatch(/^wamid\./);
    const sent = standIns.requests.findLast((r) => r.path === '/graph/v21.0/5550001/messages');
    expect(sent).toMatchObject({
      authorization: `Bearer ${number.token}`,
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '972500000001',
        type: 'text',
        text: { preview_url: false, body: 'Hello' },
      },
    });

    const wrong = await refusal(
      adapters.whatsapp.connect(
        {
          kind: 'whatsapp',
          accessToken: 'EAAGbad',
          phoneNumberId: '5550001',
          businessAccountId: null,
          testNumber: null,
          appSecret: null,
        },
        { url: 'u', secret: 's' },
      ),
    );
    expect(wrong).toMatchObject({ status: 401, reason: 'Invalid OAuth access token - Cannot parse access token' });
    standIns.block('972500000009');
    expect(
      await refusal(adapters.whatsapp.send(account, secrets(number.token), '972500000009', 'Hello')),
    ).toMatchObject({ status: 400, reason: '(#131030) Recipient phone number not in allowed list' });
  });

  it('Instagram: the account read with the page token, texts sent to /{page-id}/messages (me without one)', async () => {
    const ig = standIns.addInstagramAccount({ accountId: '1784100001', username: 'wire.bakery', followers: 321 });
    const { account } = await adapters.instagram.connect(
      {
        kind: 'instagram',
        pageAccessToken: ig.token,
        instagramAccountId: '1784100001',
        pageId: null,
        testUserId: null,
        appSecret: null,
      },
      { url: 'u', secret: 's' },
    );
    expect(account).toEqual({
      kind: 'instagram',
      instagramAccountId: '1784100001',
      username: 'wire.bakery',
      followersCount: 321,
      pageId: null,
      testUserId: null,
    });
    standIns.addInstagramUser('9009', 'maya.k');
    expect(await adapters.instagram.profileName!(account, secrets(ig.token), '9009')).toBe('maya.k');
    expect((await refusal(adapters.instagram.profileName!(account, secrets('EAAIwrong'), '9009'))).status).toBe(401);
    await adapters.instagram.send(account, secrets(ig.token), '9009', 'Hi there');
    expect(standIns.requests.findLast((r) => r.path === '/graph/v21.0/me/messages')).toMatchObject({
      body: { recipient: { id: '9009' }, messaging_type: 'RESPONSE', message: { text: 'Hi there' } },
    });
    expect(await refusal(adapters.instagram.send(account, secrets(ig.token), '9009', 'x'.repeat(1001)))).toMatchObject({
      status: 400,
    });
    expect(
      await refusal(
        adapters.instagram.connect(
          {
            kind: 'instagram',
            pageAccessToken: ig.token,
            instagramAccountId: '404',
            pageId: null,
            testUserId: null,
            appSecret: null,
          },
          { url: 'u', secret: 's' },
        ),
      ),
    ).toMatchObject({
      status: 400,
    });
  });

  it('an unreachable service is a refusal too, with why', async () => {
    const offline = createChannelAdapters({
      telegram: 'http://127.0.0.1:9/telegram',
      whatsapp: 'http://127.0.0.1:9/graph',
      instagram: 'http://127.0.0.1:9/graph',
    });
    const error = await refusal(
      offline.telegram.connect(
        { kind: 'telegram', botToken: '1:AAxxxxxxxxxxxxxxxxxxxxxxxx' },
        { url: 'u', secret: 's' },
      ),
    );
    expect(error.status).toBe(0);
    expect(error.reason).toMatch(/could not be reached/);
  });
});
