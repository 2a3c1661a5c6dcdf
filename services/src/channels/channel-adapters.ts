import type { ChannelKind } from '@kesher/contracts';
import { ChannelApiError, type Fetch } from './channel-api-error.js';
import type { ChannelAdapter } from './channel.port.js';
import { createInstagramApi, INSTAGRAM_TEXT_LIMIT } from './meta/instagram.api.js';
import { createWhatsAppApi, WHATSAPP_TEXT_LIMIT } from './meta/whatsapp.api.js';
import { createTelegramApi, TELEGRAM_TEXT_LIMIT } from './telegram/telegram.api.js';

export interface ChannelApiUrls {
  telegram: string;
  whatsapp: string;
  instagram: string;
}

const wrongSetup = (kind: ChannelKind): never => {
  throw new Error(`a ${kind} adapter was given another channel's setup`);
};

export function createTelegramAdapter(options: { baseUrl: string; fetch?: Fetch }): ChannelAdapter {
  const api = createTelegramApi(options);
  return {
    kind: 'telegram',
    maxTextLength: TELEGRAM_TEXT_LIMIT,
    async connect(setup, webhook) {
      if (setup.kind !== 'telegram') return wrongSetup('telegram');
      const bot = await api.getMe(setup.botToken);
      if (!bot.is_bot || !bot.username)
        throw new ChannelApiError('Telegram', 400, 'this token does not belong to a bot');
      await api.setWebhook(setup.botToken, { url: webhook.url, secretToken: webhook.secret });
      return { account: { kind: 'telegram', botId: bot.id, botUsername: bot.username }, token: setup.botToken };
    },
    async disconnect(_account, secrets) {
      await api.deleteWebhook(secrets.token);
    },
    send: async (_account, secrets, chatId, text) =>
      String((await api.sendMessage(secrets.token, { chatId, text })).message_id),
  };
}

export function createWhatsAppAdapter(options: { baseUrl: string; fetch?: Fetch }): ChannelAdapter {
  const api = createWhatsAppApi(options);
  return {
    kind: 'whatsapp',
    maxTextLength: WHATSAPP_TEXT_LIMIT,
    async connect(setup) {
      if (setup.kind !== 'whatsapp') return wrongSetup('whatsapp');
      // The Cloud API has no per-number webhook call: the owner pastes the address and verify token into
      // Meta's app settings, and Meta's handshake proves it. Reading the number proves the token.
      const number = await api.phoneNumber(setup.accessToken, setup.phoneNumberId);
      return {
        account: {
          kind: 'whatsapp',
          phoneNumberId: setup.phoneNumberId,
          phoneNumber: number.display_phone_number,
          businessName: number.verified_name,
          businessAccountId: setup.businessAccountId,
          testNumber: setup.testNumber,
        },
        token: setup.accessToken,
      };
    },
    async disconnect() {
      // Nothing to undo at Meta: deliveries for a disconnected number are refused by Kesher.
    },
    send: (account, secrets, chatId, text) => {
      if (account.kind !== 'whatsapp') return wrongSetup('whatsapp');
      return api.sendText(secrets.token, { phoneNumberId: account.phoneNumberId, to: chatId, text });
    },
  };
}

export function createInstagramAdapter(options: { baseUrl: string; fetch?: Fetch }): ChannelAdapter {
  const api = createInstagramApi(options);
  return {
    kind: 'instagram',
    maxTextLength: INSTAGRAM_TEXT_LIMIT,
    async connect(setup) {
      if (setup.kind !== 'instagram') return wrongSetup('instagram');
      const account = await api.account(setup.pageAccessToken, setup.instagramAccountId);
      return {
        account: {
          kind: 'instagram',
          instagramAccountId: setup.instagramAccountId,
          username: account.username,
          followersCount: account.followers_count ?? null,
          pageId: setup.pageId,
          testUserId: setup.testUserId,
        },
        token: setup.pageAccessToken,
      };
    },
    async disconnect() {},
    async profileName(_account, secrets, chatId) {
      const profile = await api.profile(secrets.token, chatId);
      return profile.username ?? profile.name ?? null;
    },
    send: (account, secrets, chatId, text) => {
      if (account.kind !== 'instagram') return wrongSetup('instagram');
      return api.sendText(secrets.token, { pageId: account.pageId, recipientId: chatId, text });
    },
  };
}

/** The three adapters, each on its configured base URL. */
export function createChannelAdapters(urls: ChannelApiUrls, fetcher?: Fetch): Record<ChannelKind, ChannelAdapter> {
  return {
    telegram: createTelegramAdapter({ baseUrl: urls.telegram, fetch: fetcher }),
    whatsapp: createWhatsAppAdapter({ baseUrl: urls.whatsapp, fetch: fetcher }),
    instagram: createInstagramAdapter({ baseUrl: urls.instagram, fetch: fetcher }),
  };
}
