import { z } from 'zod';
import type { InboundMessage, InboundStatus } from '../channel.port.js';
import { cleanText } from '../clean-text.js';

/** WhatsApp Cloud API webhook (`object: whatsapp_business_account`, field `messages`). */
const WhatsAppPayloadSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.object({
      id: z.string().optional(),
      changes: z.array(
        z.object({
          field: z.string(),
          value: z
            .object({
              metadata: z.object({ phone_number_id: z.string() }).partial().optional(),
              contacts: z
                .array(z.object({ wa_id: z.string(), profile: z.object({ name: z.string().optional() }).optional() }))
                .optional(),
              messages: z
                .array(
                  z.object({
                    from: z.string(),
                    id: z.string(),
                    timestamp: z.string().optional(),
                    type: z.string(),
                    text: z.object({ body: z.string() }).optional(),
                  }),
                )
                .optional(),
              statuses: z
                .array(
                  z.object({
                    id: z.string(),
                    status: z.string(),
                    timestamp: z.string().optional(),
                    recipient_id: z.string().optional(),
                    errors: z
                      .array(
                        z.object({
                          code: z.number().optional(),
                          title: z.string().optional(),
                          message: z.string().optional(),
                        }),
                      )
                      .optional(),
                  }),
                )
                .optional(),
            })
            .passthrough(),
        }),
      ),
    }),
  ),
});

const fromSeconds = (timestamp: string | undefined, fallback: Date) => {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : fallback;
};
const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/**
 * The text messages and delivery statuses of one WhatsApp delivery for the connected number. Changes for
 * another number (one Meta app can serve several) are left out: they are not this integration's traffic.
 */
export function readWhatsAppDelivery(
  body: unknown,
  phoneNumberId: string,
  now: Date,
): { messages: InboundMessage[]; statuses: InboundStatus[] } | undefined {
  const parsed = WhatsAppPayloadSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const messages: InboundMessage[] = [];
  const statuses: InboundStatus[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages' || change.value.metadata?.phone_number_id !== phoneNumberId) continue;
      const names = new Map(
        (change.value.contacts ?? []).map((contact) => [contact.wa_id, contact.profile?.name ?? null]),
      );
      for (const message of change.value.messages ?? []) {
        if (message.type !== 'text' || !message.text?.body.trim()) continue;
        messages.push({
          // wamid ids are unique and repeated by a redelivery.
          deliveryKey: `m${message.id}`,
          chatId: message.from,
          senderName: names.get(message.from) ? cleanText(names.get(message.from)!, 200) : null,
          externalMessageId: message.id,
          text: cleanText(message.text.body, 10_000),
        });
      }
      for (const status of change.value.statuses ?? []) {
        const known = STATUSES.find((s) => s === status.status);
        if (!known) continue;
        const error = status.errors?.[0];
        statuses.push({
          externalMessageId: status.id,
          recipientId: status.recipient_id ?? null,
          status: known,
          error: error ? cleanText(error.message ?? error.title ?? `error ${error.code ?? ''}`, 1000) : null,
          at: fromSeconds(status.timestamp, now),
        });
      }
    }
  }
  return { messages, statuses };
}

/** Instagram Messaging webhook (`object: instagram`, `entry[].messaging[]`). */
const InstagramPayloadSchema = z.object({
  object: z.literal('instagram'),
  entry: z.array(
    z.object({
      id: z.string(),
      messaging: z
        .array(
          z.object({
            sender: z.object({ id: z.string() }),
            recipient: z.object({ id: z.string() }),
            timestamp: z.number().optional(),
            message: z
              .object({ mid: z.string(), text: z.string().optional(), is_echo: z.boolean().optional() })
              .optional(),
            read: z.object({ mid: z.string().optional() }).optional(),
          }),
        )
        .optional(),
    }),
  ),
});

/**
 * The text messages customers sent to the connected account. Echoes (the account's own messages, Kesher's
 * answers included) are left out, or the assistant would answer itself.
 */
export function readInstagramDelivery(
  body: unknown,
  accountIds: readonly string[],
  now: Date,
): { messages: InboundMessage[]; statuses: InboundStatus[] } | undefined {
  const parsed = InstagramPayloadSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const messages: InboundMessage[] = [];
  const statuses: InboundStatus[] = [];
  for (const entry of parsed.data.entry) {
    if (!accountIds.includes(entry.id)) continue;
    for (const event of entry.messaging ?? []) {
      if (event.read?.mid)
        statuses.push({
          externalMessageId: event.read.mid,
          recipientId: event.sender.id,
          status: 'read',
          error: null,
          at: event.timestamp ? new Date(event.timestamp) : now,
        });
      const message = event.message;
      if (!message || message.is_echo || accountIds.includes(event.sender.id) || !message.text?.trim()) continue;
      messages.push({
        deliveryKey: `m${message.mid}`,
        chatId: event.sender.id,
        senderName: null,
        externalMessageId: message.mid,
        text: cleanText(message.text, 10_000),
      });
    }
  }
  return { messages, statuses };
}
