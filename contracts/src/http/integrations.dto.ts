import { z } from 'zod';
import { ChannelSchema } from '../events/thread.events.js';

/**
 * The Integrations calls (spec part 2 §7 "Integrations", entities §3) and the one inbox. Setup bodies are
 * parsed by the route with these schemas and refused with the spec's own texts (§5), as 400 `{ detail }`.
 */
export const integrationMessages = {
  telegramTokenRequired: 'Please enter the Bot Token',
  whatsappFieldsRequired: 'Please provide both Access Token and Phone Number ID.',
  instagramFieldsRequired: 'Please provide both Page Access Token and Instagram Account ID.',
  /** §8: the client shows these with the server's detail after them. */
  setupFailed: {
    telegram: 'Failed to setup Telegram integration',
    whatsapp: 'Failed to setup WhatsApp integration',
    instagram: 'Failed to setup Instagram integration',
  },
  notConnected: {
    telegram: 'Telegram integration not found',
    whatsapp: 'WhatsApp integration not found',
    instagram: 'Instagram integration not found',
  },
  disconnected: {
    telegram: 'Telegram integration disconnected',
    whatsapp: 'WhatsApp integration disconnected',
    instagram: 'Instagram integration disconnected',
  },
  /** Meta signs deliveries with an app secret: the deployment's META_APP_SECRET, or the owner's app_secret. */
  appSecretNeeded:
    "An app secret is needed to verify Meta's signatures: enter your Meta app's App Secret (or ask the operator to set META_APP_SECRET).",
  channelUnreachable: (channel: string, reason: string) => `${channel} could not be reached: ${reason}`,
  takeOverFirst: 'Take over this conversation before replying in it.',
  takenOver: 'The owner has taken over this conversation; the assistant does not answer it until it is handed back.',
  notACustomerThread: "Only a customer's conversation (widget, share link or a channel) can be taken over.",
  /** A connected channel the owner's plan no longer includes (cancelled, unpaid): kept, but not answered. */
  paused: {
    telegram:
      'Paused: your plan no longer includes Telegram, so the assistant does not answer there. Upgrade on the pricing page to resume.',
    whatsapp:
      'Paused: your plan no longer includes WhatsApp, so the assistant does not answer there. Upgrade on the pricing page to resume.',
    instagram:
      'Paused: your plan no longer includes Instagram, so the assistant does not answer there. Upgrade on the pricing page to resume.',
  },
} as const;

/**
 * Whether a connected channel is answered now: `paused` while the owner's plan does not include it (the
 * connection is kept and answering resumes with the plan), with `status_reason` saying why.
 */
const ChannelStatusFields = {
  status: z.enum(['active', 'paused']),
  status_reason: z.string().nullable(),
};

const trimmed = (message: string) => z.string({ error: message }).trim().min(1, message).max(4096, message);
const optionalText = z
  .string()
  .trim()
  .max(256)
  .optional()
  .nullable()
  .transform((value) => (value ? value : null));

/** POST /assistants/{id}/telegram/setup (and POST /assistants/{id}/telegram). */
export const TelegramSetupBodySchema = z.object({ bot_token: trimmed(integrationMessages.telegramTokenRequired) });
export type TelegramSetupBody = z.infer<typeof TelegramSetupBodySchema>;

/** GET /assistants/{id}/telegram (404 means not connected, §4). */
export const TelegramIntegrationSchema = z.object({
  is_active: z.boolean(),
  bot_username: z.string(),
  /** The token as the owner may see it again: its last 4 characters only. */
  bot_token_masked: z.string(),
  webhook_url: z.string(),
  connected_at: z.number().int(),
  ...ChannelStatusFields,
});
export type TelegramIntegrationDto = z.infer<typeof TelegramIntegrationSchema>;

export const TelegramSetupResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  bot_username: z.string(),
  is_active: z.boolean(),
  integration: TelegramIntegrationSchema,
});

/** POST /assistants/{id}/whatsapp/setup (and POST /assistants/{id}/whatsapp). */
export const WhatsAppSetupBodySchema = z.object({
  access_token: trimmed(integrationMessages.whatsappFieldsRequired),
  phone_number_id: trimmed(integrationMessages.whatsappFieldsRequired).pipe(
    z.string().regex(/^\d{1,32}$/, 'Phone Number ID must be digits'),
  ),
  business_account_id: optionalText,
  test_number: optionalText,
  /** Beyond the spec: the owner's Meta app secret, when the deployment has no META_APP_SECRET of its own. */
  app_secret: optionalText,
});
export type WhatsAppSetupBody = z.infer<typeof WhatsAppSetupBodySchema>;

export const WhatsAppIntegrationSchema = z.object({
  phone_number: z.string(),
  business_name: z.string(),
  is_active: z.boolean(),
  webhook_url: z.string(),
  /** The owner pastes it into Meta's webhook settings; Meta sends it back in the verification handshake. */
  webhook_verify_token: z.string(),
  phone_number_id: z.string(),
  business_account_id: z.string().nullable(),
  access_token_masked: z.string(),
  connected_at: z.number().int(),
  ...ChannelStatusFields,
});
export type WhatsAppIntegrationDto = z.infer<typeof WhatsAppIntegrationSchema>;

/** POST /assistants/{id}/instagram/setup (and POST /assistants/{id}/instagram). */
export const InstagramSetupBodySchema = z.object({
  page_access_token: trimmed(integrationMessages.instagramFieldsRequired),
  instagram_account_id: trimmed(integrationMessages.instagramFieldsRequired).pipe(
    z.string().regex(/^\d{1,32}$/, 'Instagram Account ID must be digits'),
  ),
  page_id: optionalText,
  test_user_id: optionalText,
  app_secret: optionalText,
});
export type InstagramSetupBody = z.infer<typeof InstagramSetupBodySchema>;

export const InstagramIntegrationSchema = z.object({
  username: z.string(),
  followers_count: z.number().int().nullable(),
  is_active: z.boolean(),
  webhook_url: z.string(),
  webhook_verify_token: z.string(),
  instagram_account_id: z.string(),
  page_id: z.string().nullable(),
  page_access_token_masked: z.string(),
  connected_at: z.number().int(),
  ...ChannelStatusFields,
});
export type InstagramIntegrationDto = z.infer<typeof InstagramIntegrationSchema>;

/** Setup responses carry the integration object (§3). */
export const WhatsAppSetupResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  integration: WhatsAppIntegrationSchema,
});
export const InstagramSetupResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  integration: InstagramIntegrationSchema,
});

/** GET /whatsapp/stats/{id}: chats are the customers who wrote; active = wrote within the last 24 hours (WhatsApp's service window). */
export const WhatsAppStatsSchema = z.object({
  total_chats: z.number().int(),
  active_chats: z.number().int(),
  chats: z.array(
    z.object({ profile_name: z.string().nullable(), wa_id: z.string(), last_message_at: z.number().int() }),
  ),
});
export type WhatsAppStatsDto = z.infer<typeof WhatsAppStatsSchema>;

/** GET /instagram/stats/{id}. */
export const InstagramStatsSchema = z.object({
  total_chats: z.number().int(),
  active_chats: z.number().int(),
  chats: z.array(
    z.object({ username: z.string().nullable(), instagram_user_id: z.string(), last_message_at: z.number().int() }),
  ),
});
export type InstagramStatsDto = z.infer<typeof InstagramStatsSchema>;

export const IntegrationDisconnectedSchema = z.object({ success: z.literal(true), detail: z.string() });

/** GET /inbox: every conversation of the owner's assistants, newest activity first, whichever channel it came through. */
export const InboxQuerySchema = z.object({
  assistant_id: z.coerce.number().int().positive().optional(),
  channel: ChannelSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const InboxEntrySchema = z.object({
  thread_id: z.string(),
  assistant_id: z.number().int(),
  assistant_name: z.string(),
  /** app (the owner's own chat), public_link, embed (widget), telegram, whatsapp, instagram. */
  channel: ChannelSchema,
  title: z.string(),
  /** The name the channel gave the customer (Telegram/WhatsApp profile, Instagram username); null elsewhere. */
  contact_name: z.string().nullable(),
  taken_over: z.boolean(),
  last_message: z.string().nullable(),
  last_message_at: z.number().int(),
  created_at: z.number().int(),
});
export type InboxEntryDto = z.infer<typeof InboxEntrySchema>;
export const InboxSchema = z.object({ data: z.array(InboxEntrySchema) });

/** POST /threads/{id}/takeover and /threads/{id}/handback answer the thread's new state. */
export const TakeoverStateSchema = z.object({ thread_id: z.string(), taken_over: z.boolean(), channel: ChannelSchema });
/** POST /threads/{id}/owner-reply: the owner's words, sent through the conversation's channel. */
export const OwnerReplyBodySchema = z.object({
  content: z
    .string()
    .trim()
    .min(1, 'Message content cannot be empty')
    .max(4000, 'Message too long (max 4000 characters)'),
});
export const OwnerReplySchema = z.object({
  id: z.string(),
  thread_id: z.string(),
  role: z.literal('assistant'),
  author: z.literal('owner'),
  text: z.string(),
  created_at: z.number().int(),
});
