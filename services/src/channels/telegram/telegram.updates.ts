import { z } from 'zod';
import type { InboundMessage } from '../channel.port.js';
import { cleanText } from '../clean-text.js';

/** The part of an Update (https://core.telegram.org/bots/api#update) Kesher reads. */
const UpdateSchema = z.object({
  update_id: z.number().int(),
  message: z
    .object({
      message_id: z.number().int(),
      from: z
        .object({
          id: z.number().int(),
          is_bot: z.boolean().optional(),
          first_name: z.string().optional(),
          last_name: z.string().optional(),
          username: z.string().optional(),
        })
        .optional(),
      chat: z.object({ id: z.number().int(), type: z.string() }),
      date: z.number().int(),
      text: z.string().optional(),
    })
    .optional(),
});

/**
 * An update as a customer's message, or why it is not one (the webhook answers 200 either way: Telegram
 * would otherwise retry it). Only private chats' text messages are answered: a bot added to a group does
 * not answer everyone in it.
 */
export function readTelegramUpdate(body: unknown): { message: InboundMessage } | { ignored: string } {
  const parsed = UpdateSchema.safeParse(body);
  if (!parsed.success) return { ignored: 'not a Telegram update' };
  const { update_id, message } = parsed.data;
  if (!message) return { ignored: 'not a message' };
  if (message.chat.type !== 'private') return { ignored: `a ${message.chat.type} chat` };
  if (message.from?.is_bot) return { ignored: 'a bot wrote it' };
  if (!message.text?.trim()) return { ignored: 'no text' };
  const from = message.from;
  const name = from ? [from.first_name, from.last_name].filter(Boolean).join(' ') || from.username || null : null;
  return {
    message: {
      // Telegram's update_id is unique per bot and is what a redelivery repeats.
      deliveryKey: `u${update_id}`,
      chatId: String(message.chat.id),
      senderName: name ? cleanText(name, 200) : null,
      externalMessageId: String(message.message_id),
      text: cleanText(message.text, 10_000),
    },
  };
}
