import { z } from 'zod';
import type { Fetch } from '../channel-api-error.js';
import { graphCall } from './graph-api.js';

/** Instagram's text message limit (Messaging API: 1000 characters). */
export const INSTAGRAM_TEXT_LIMIT = 1000;

const AccountSchema = z.object({
  id: z.string().optional(),
  username: z.string(),
  followers_count: z.number().int().nonnegative().optional(),
});
const SentSchema = z.object({ recipient_id: z.string().optional(), message_id: z.string() });

/**
 * Instagram Messaging (Messenger Platform for Instagram, Graph API): `GET /{ig-account-id}` checks the page
 * access token and reads the account, `POST /{page-id}/messages` (`me` without a page id) sends. The base
 * is INSTAGRAM_API_URL (https://graph.facebook.com/v21.0 by default).
 */
export function createInstagramApi(options: { baseUrl: string; fetch?: Fetch }) {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, '');
  return {
    account: (token: string, instagramAccountId: string) =>
      graphCall(
        'Instagram',
        fetcher,
        `${base}/${encodeURIComponent(instagramAccountId)}?fields=username,followers_count`,
        token,
        { method: 'GET' },
        AccountSchema,
      ),
    /** Instagram's User Profile API: an Instagram-scoped user id's username (what the stats show). */
    profile: (token: string, userId: string) =>
      graphCall(
        'Instagram',
        fetcher,
        `${base}/${encodeURIComponent(userId)}?fields=name,username`,
        token,
        { method: 'GET' },
        z.object({ username: z.string().optional(), name: z.string().optional() }),
      ),
    async sendText(
      token: string,
      input: { pageId: string | null; recipientId: string; text: string },
    ): Promise<string> {
      const sent = await graphCall(
        'Instagram',
        fetcher,
        `${base}/${encodeURIComponent(input.pageId ?? 'me')}/messages`,
        token,
        {
          method: 'POST',
          body: { recipient: { id: input.recipientId }, messaging_type: 'RESPONSE', message: { text: input.text } },
        },
        SentSchema,
      );
      return sent.message_id;
    },
  };
}
export type InstagramApi = ReturnType<typeof createInstagramApi>;
