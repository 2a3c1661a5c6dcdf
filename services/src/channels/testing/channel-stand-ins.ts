import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metaSignature } from '../meta/meta-signature.js';

/**
 * Local stand-ins for the channels' APIs, speaking their documented wire formats, errors included:
 * - the Telegram Bot API at `<origin>/telegram` (`/bot<token>/<method>`, `{ ok, result | error_code, description }`);
 * - the Graph API at `<origin>/graph/v21.0` for the WhatsApp Cloud API (`GET /{phone-number-id}`,
 *   `POST /{phone-number-id}/messages`) and Instagram Messaging (`GET /{ig-id}`, `POST /{page-id}/messages`),
 *   refusing with Meta's `{ error: { message, type, code, fbtrace_id } }`.
 * They also play the channels' side of webhooks: Telegram posting an update with the secret token it was
 * given, Meta posting a signed delivery.
 */
export interface SentMessage {
  channel: 'telegram' | 'whatsapp' | 'instagram';
  /** The bot token or access token used. */
  token: string;
  to: string;
  text: string;
  at: number;
}

export interface ChannelStandIns {
  origin: string;
  urls: { telegram: string; whatsapp: string; instagram: string };
  /** A bot Telegram knows: its token and username. */
  addBot(username: string): { token: string; id: number };
  /** A WhatsApp number (phone number id) or Instagram account reachable with a token. */
  addWhatsAppNumber(input: { phoneNumberId: string; display: string; name: string }): { token: string };
  addInstagramAccount(input: { accountId: string; username: string; followers: number }): { token: string };
  /** An Instagram user (Instagram-scoped id) whose profile the User Profile API returns. */
  addInstagramUser(userId: string, username: string): void;
  /** The webhook each bot was pointed at (setWebhook), undefined after deleteWebhook. */
  webhookOf(token: string): { url: string; secretToken: string } | undefined;
  /** Chats that blocked the bot / numbers outside the allowed list: sending to them fails as the real API does. */
  block(chatId: string): void;
  /** Telegram answers 429 with retry_after for the next n sends. */
  throttleNext(n: number, retryAfterSeconds: number): void;
  sent: SentMessage[];
  /** Every request received (method, path), for asserting the wire format. */
  requests: { method: string; path: string; body: unknown; authorization?: string }[];
  /** Resolves once `count` messages were sent (to a given recipient, if named). */
  waitForSent(count: number, to?: string, timeoutMs?: number): Promise<SentMessage[]>;
  /** Telegram delivering an update to the bot's webhook, as Telegram does. */
  telegramUpdate(token: string, update: unknown, options?: { secretToken?: string | null }): Promise<Response>;
  /** Meta delivering a webhook payload, signed with the app secret (or not, or wrongly). */
  metaDelivery(url: string, body: unknown, appSecret: string | null): Promise<Response>;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : {};
};
const send = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
const graphError = (response: ServerResponse, status: number, message: string, code: number) =>
  send(response, status, {
    error: {
      message,
      type: code === 190 ? 'OAuthException' : 'GraphMethodException',
      code,
      fbtrace_id: randomBytes(6).toString('hex'),
    },
  });

export async function startChannelStandIns(options: { port?: number; host?: string } = {}): Promise<ChannelStandIns> {
  const bots = new Map<string, { id: number; username: string; webhook?: { url: string; secretToken: string } }>();
  const numbers = new Map<string, { token: string; display: string; name: string }>();
  const accounts = new Map<string, { token: string; username: string; followers: number }>();
  const blocked = new Set<string>();
  const igUsers = new Map<string, string>();
  const sent: SentMessage[] = [];
  const requests: ChannelStandIns['requests'] = [];
  const waiters = new Set<() => void>();
  let throttled = { count: 0, retryAfter: 0 };
  let nextMessageId = 1;
  const record = (message: SentMessage) => {
    sent.push(message);
    for (const wake of waiters) wake();
  };

  async function telegram(method: string, token: string, body: Record<string, unknown>, response: ServerResponse) {
    const bot = bots.get(token);
    // Telegram answers a malformed token with 404 and a wrong one with 401.
    if (!/^\d+:[\w-]{20,}$/.test(token))
      return send(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (!bot) return send(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    switch (method) {
      case 'getMe':
        return send(response, 200, {
          ok: true,
          result: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username, can_join_groups: true },
        });
      case 'setWebhook': {
        const url = String(body.url ?? '');
        const secretToken = String(body.secret_token ?? '');
        if (!/^https?:\/\//.test(url))
          return send(response, 400, {
            ok: false,
            error_code: 400,
            description: 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
          });
        if (!/^[A-Za-z0-9_-]{1,256}$/.test(secretToken))
          return send(response, 400, {
            ok: false,
            error_code: 400,
            description: 'Bad Request: secret token contains unallowed characters',
          });
        bot.webhook = { url, secretToken };
        return send(response, 200, { ok: true, result: true, description: 'Webhook was set' });
      }
      case 'deleteWebhook':
        bot.webhook = undefined;
        return send(response, 200, { ok: true, result: true, description: 'Webhook was deleted' });
      case 'sendMessage': {
        const chatId = String(body.chat_id ?? '');
        const text = typeof body.text === 'string' ? body.text : '';
        if (throttled.count > 0) {
          throttled.count -= 1;
          return send(response, 429, {
            ok: false,
            error_code: 429,
            description: `Too Many Requests: retry after ${throttled.retryAfter}`,
            parameters: { retry_after: throttled.retryAfter },
          });
        }
        if (!text.trim())
          return send(response, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
        if ([...text].length > 4096)
          return send(response, 400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
        if (body.parse_mode !== undefined)
          return send(response, 400, {
            ok: false,
            error_code: 400,
            description: "Bad Request: can't parse entities: the stand-in expects plain text",
          });
        if (blocked.has(chatId))
          return send(response, 403, {
            ok: false,
            error_code: 403,
            description: 'Forbidden: bot was blocked by the user',
          });
        const id = nextMessageId++;
        record({ channel: 'telegram', token, to: chatId, text, at: Date.now() });
        return send(response, 200, {
          ok: true,
          result: {
            message_id: id,
            chat: { id: Number(chatId), type: 'private' },
            date: Math.floor(Date.now() / 1000),
            text,
          },
        });
      }
      default:
        return send(response, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    }
  }

  async function graph(
    method: string,
    parts: string[],
    token: string | undefined,
    body: Record<string, unknown>,
    response: ServerResponse,
  ) {
    const [id, edge] = parts;
    if (!token)
      return graphError(
        response,
        400,
        'An active access token must be used to query information about the current user.',
        2500,
      );
    if (method === 'GET' && id && !edge) {
      const number = numbers.get(id);
      if (number)
        return number.token === token
          ? send(response, 200, { display_phone_number: number.display, verified_name: number.name, id })
          : graphError(response, 401, 'Invalid OAuth access token - Cannot parse access token', 190);
      const username = igUsers.get(id);
      if (username) {
        if (![...accounts.values()].some((a) => a.token === token))
          return graphError(response, 401, 'Invalid OAuth access token - Cannot parse access token', 190);
        return send(response, 200, { name: username, username, id });
      }
      const account = accounts.get(id);
      if (account)
        return account.token === token
          ? send(response, 200, { username: account.username, followers_count: account.followers, id })
          : graphError(response, 401, 'Invalid OAuth access token - Cannot parse access token', 190);
      return graphError(
        response,
        400,
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        100,
      );
    }
    if (method === 'POST' && id && edge === 'messages') {
      if (body.messaging_product === 'whatsapp') {
        const number = numbers.get(id);
        if (!number || number.token !== token)
          return graphError(response, 401, 'Invalid OAuth access token - Cannot parse access token', 190);
        const to = String(body.to ?? '');
        const text = (body.text as { body?: unknown } | undefined)?.body;
        if (body.type !== 'text' || typeof text !== 'string' || !text)
          return graphError(response, 400, "(#100) The parameter text['body'] is required.", 100);
        if ([...text].length > 4096)
          return graphError(response, 400, "(#100) Param text['body'] must be at most 4096 characters long.", 100);
        if (blocked.has(to))
          return graphError(response, 400, '(#131030) Recipient phone number not in allowed list', 131030);
        const wamid = `wamid.${randomBytes(12).toString('base64url')}`;
        record({ channel: 'whatsapp', token, to, text, at: Date.now() });
        return send(response, 200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id: wamid }],
        });
      }
      const account = [...accounts.values()].find((a) => a.token === token);
      if (!account) return graphError(response, 401, 'Invalid OAuth access token - Cannot parse access token', 190);
      const recipient = (body.recipient as { id?: unknown } | undefined)?.id;
      const text = (body.message as { text?: unknown } | undefined)?.text;
      if (typeof recipient !== 'string' || typeof text !== 'string')
        return graphError(response, 400, '(#100) param recipient must be non-empty.', 100);
      if ([...text].length > 1000)
        return graphError(
          response,
          400,
          '(#100) Length of param message[text] must be less than or equal to 1000',
          100,
        );
      if (blocked.has(recipient))
        return graphError(response, 400, "(#551) This person isn't available right now.", 551);
      record({ channel: 'instagram', token, to: recipient, text, at: Date.now() });
      return send(response, 200, {
        recipient_id: recipient,
        message_id: `aWdfZAG1faWQ${randomBytes(9).toString('base64url')}`,
      });
    }
    return graphError(response, 400, 'Unknown path components', 2500);
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const body = request.method === 'POST' ? await readBody(request) : {};
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname + url.search,
        body,
        authorization: request.headers.authorization,
      });
      const telegramMatch = /^\/telegram\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
      if (telegramMatch)
        return telegram(
          telegramMatch[2]!,
          decodeURIComponent(telegramMatch[1]!),
          body as Record<string, unknown>,
          response,
        );
      if (url.pathname.startsWith('/simulate/'))
        return simulate(request.method ?? 'GET', url.pathname, body as Record<string, unknown>, response);
      const graphMatch = /^\/graph\/v21\.0\/(.+)$/.exec(url.pathname);
      if (graphMatch) {
        const bearer = request.headers.authorization?.startsWith('Bearer ')
          ? request.headers.authorization.slice(7)
          : undefined;
        return graph(
          request.method ?? 'GET',
          graphMatch[1]!.split('/').map(decodeURIComponent),
          bearer,
          body as Record<string, unknown>,
          response,
        );
      }
      send(response, 404, { error: 'not found' });
    })().catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
  /**
   * For trying Kesher by hand (`make start` with the stand-ins, browser tests): a customer writing.
   * POST /simulate/telegram/<bot token> {chat_id, text, first_name?}; POST /simulate/meta {webhook_url,
   * app_secret, payload}; GET /simulate/sent lists what Kesher sent.
   */
  let nextUpdateId = 1;
  async function simulate(method: string, path: string, body: Record<string, unknown>, response: ServerResponse) {
    if (method === 'GET' && path === '/simulate/sent') return send(response, 200, sent);
    const telegramMatch = /^\/simulate\/telegram\/(.+)$/.exec(path);
    if (method === 'POST' && telegramMatch) {
      const token = decodeURIComponent(telegramMatch[1]!);
      const webhook = bots.get(token)?.webhook;
      if (!webhook) return send(response, 404, { error: 'this bot has no webhook (connect it in Kesher first)' });
      const update = telegramTextUpdate(
        nextUpdateId++,
        Number(body.chat_id ?? 1),
        String(body.text ?? ''),
        String(body.first_name ?? 'Dana'),
      );
      const delivered = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': webhook.secretToken },
        body: JSON.stringify(update),
      });
      return send(response, 200, { delivered: delivered.status });
    }
    if (method === 'POST' && path === '/simulate/meta') {
      const raw = JSON.stringify(body.payload);
      const delivered = await fetch(String(body.webhook_url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': metaSignature(raw, String(body.app_secret ?? '')),
        },
        body: raw,
      });
      return send(response, 200, { delivered: delivered.status });
    }
    return send(response, 404, { error: 'not found' });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const origin = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  let nextBotId = 7000000000;

  return {
    origin,
    urls: { telegram: `${origin}/telegram`, whatsapp: `${origin}/graph/v21.0`, instagram: `${origin}/graph/v21.0` },
    addBot(username) {
      const id = nextBotId++;
      const token = `${id}:AA${randomBytes(24).toString('base64url')}`;
      bots.set(token, { id, username });
      return { token, id };
    },
    addWhatsAppNumber({ phoneNumberId, display, name }) {
      const token = `EAAG${randomBytes(30).toString('hex')}`;
      numbers.set(phoneNumberId, { token, display, name });
      return { token };
    },
    addInstagramAccount({ accountId, username, followers }) {
      const token = `EAAI${randomBytes(30).toString('hex')}`;
      accounts.set(accountId, { token, username, followers });
      return { token };
    },
    addInstagramUser: (userId, username) => void igUsers.set(userId, username),
    webhookOf: (token) => bots.get(token)?.webhook,
    block: (chatId) => void blocked.add(chatId),
    throttleNext(count, retryAfter) {
      throttled = { count, retryAfter };
    },
    sent,
    requests,
    waitForSent(count, to, timeoutMs = 30_000) {
      const matching = () => sent.filter((m) => to === undefined || m.to === to);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (matching().length < count) return;
          cleanup();
          resolve(matching());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `waited ${timeoutMs} ms for ${count} sent messages${to ? ` to ${to}` : ''}; got ${matching().length}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async telegramUpdate(token, update, options = {}) {
      const webhook = bots.get(token)?.webhook;
      if (!webhook) throw new Error('this bot has no webhook');
      const secret = options.secretToken === undefined ? webhook.secretToken : options.secretToken;
      return fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret }),
        },
        body: JSON.stringify(update),
      });
    },
    async metaDelivery(url, body, appSecret) {
      const raw = JSON.stringify(body);
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(appSecret === null ? {} : { 'x-hub-signature-256': metaSignature(raw, appSecret) }),
        },
        body: raw,
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Telegram's update for a private text message. */
export const telegramTextUpdate = (updateId: number, chatId: number, text: string, firstName = 'Dana') => ({
  update_id: updateId,
  message: {
    message_id: updateId + 1000,
    from: { id: chatId, is_bot: false, first_name: firstName },
    chat: { id: chatId, type: 'private', first_name: firstName },
    date: Math.floor(Date.now() / 1000),
    text,
  },
});

/** The WhatsApp Cloud API's webhook payload for one inbound text message. */
export const whatsappTextDelivery = (
  phoneNumberId: string,
  from: string,
  messageId: string,
  text: string,
  name = 'Yael',
) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA-1',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
            contacts: [{ profile: { name }, wa_id: from }],
            messages: [
              {
                from,
                id: messageId,
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: 'text',
                text: { body: text },
              },
            ],
          },
        },
      ],
    },
  ],
});

/** The WhatsApp Cloud API's status webhook for a message Kesher sent. */
export const whatsappStatusDelivery = (
  phoneNumberId: string,
  wamid: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  recipient: string,
) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA-1',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
            statuses: [
              {
                id: wamid,
                status,
                timestamp: String(Math.floor(Date.now() / 1000)),
                recipient_id: recipient,
                ...(status === 'failed'
                  ? { errors: [{ code: 131047, title: 'Re-engagement message', message: 'Re-engagement message' }] }
                  : {}),
              },
            ],
          },
        },
      ],
    },
  ],
});

/** Instagram Messaging's webhook payload for one inbound text message. */
export const instagramTextDelivery = (accountId: string, senderId: string, mid: string, text: string) => ({
  object: 'instagram',
  entry: [
    {
      id: accountId,
      time: Date.now(),
      messaging: [
        { sender: { id: senderId }, recipient: { id: accountId }, timestamp: Date.now(), message: { mid, text } },
      ],
    },
  ],
});
