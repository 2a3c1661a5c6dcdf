import { z } from 'zod';
import type { Fetch } from '../channel-api-error.js';
import { graphCall } from './graph-api.js';

/** WhatsApp's text message body limit. */
export const WHATSAPP_TEXT_LIMIT = 4096;

const PhoneNumberSchema = z.object({
  id: z.string().optional(),
  display_phone_number: z.string(),
  verified_name: z.string(),
});
const SentSchema = z.object({ messages: z.array(z.object({ id: z.string() })).min(1) });

/**
 * The WhatsApp Cloud API (Graph API): `GET /{phone-number-id}` to check the token and read the number,
 * `POST /{phone-number-id}/messages` to send. The base is WHATSAPP_API_URL (Graph with its version,
 * https://graph.facebook.com/v21.0 by default).
 */
export function createWhatsAppApi(options: { baseUrl: string; fetch?: Fetch }) {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, '');
  return {
    phoneNumber: (token: string, phoneNumberId: string) =>
      graphCall(
        'WhatsApp',
        fetcher,
        `${base}/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`,
        token,
        { method: 'GET' },
        PhoneNumberSchema,
      ),
    async sendText(token: string, input: { phoneNumberId: string; to: string; text: string }): Promise<string> {
      const sent = await graphCall(
        'WhatsApp',
        fetcher,
        `${base}/${encodeURIComponent(input.phoneNumberId)}/messages`,
        token,
        {
          method: 'POST',
          body: {
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: input.to,
            type: 'text',
            text: { preview_url: false, body: input.text },
          },
        },
        SentSchema,
      );
      return sent.messages[0]!.id;
    },
  };
}
export type WhatsAppApi = ReturnType<typeof createWhatsAppApi>;
