import { z } from 'zod';

/** The messaging channels an assistant can be connected to (spec part 2 §2 Integrations). */
export const ChannelKindSchema = z.enum(['telegram', 'whatsapp', 'instagram']);
export type ChannelKind = z.infer<typeof ChannelKindSchema>;

const Id = z.string().min(1);

/** What the channel's API said about the connected account: public details, shown to the owner. */
export const ChannelAccountSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('telegram'), botId: z.number().int(), botUsername: z.string().min(1) }),
  z.object({
    kind: z.literal('whatsapp'),
    phoneNumberId: Id,
    phoneNumber: z.string(),
    businessName: z.string(),
    businessAccountId: z.string().nullable(),
    testNumber: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('instagram'),
    instagramAccountId: Id,
    username: z.string(),
    followersCount: z.number().int().nonnegative().nullable(),
    pageId: z.string().nullable(),
    testUserId: z.string().nullable(),
  }),
]);
export type ChannelAccount = z.infer<typeof ChannelAccountSchema>;

/**
 * An assistant was connected to a channel account. `integrationId` is random and names the webhook
 * address; the secrets (token, webhook secret, verify token, app secret) are sealed with the deployment's
 * secrets key (AES-256-GCM, bound to the integration id): the log never holds them in the clear.
 */
export const ChannelConnectedSchema = z.object({
  integrationId: Id,
  assistantId: Id,
  ownerId: Id,
  account: ChannelAccountSchema,
  sealedSecrets: z.string().min(1),
  /** The token's last 4 characters: all the owner is ever shown of it again. */
  tokenLast4: z.string().max(4),
});
export type ChannelConnected = z.infer<typeof ChannelConnectedSchema>;

export const ChannelDisconnectedSchema = z.object({
  integrationId: Id,
  assistantId: Id,
  kind: ChannelKindSchema,
  /** The owner disconnected it, or replaced it with another account. */
  reason: z.enum(['owner', 'replaced']),
});
export type ChannelDisconnected = z.infer<typeof ChannelDisconnectedSchema>;

/**
 * A customer's message arrived through a channel's webhook: recorded before the webhook is answered, on
 * a stream of its own named by the delivery (Telegram's update id, Meta's message id), so a redelivery
 * finds the stream taken and records nothing.
 */
export const ChannelMessageReceivedSchema = z.object({
  integrationId: Id,
  assistantId: Id,
  ownerId: Id,
  kind: ChannelKindSchema,
  /** Where the answer goes: Telegram's chat id, the WhatsApp number (wa_id), the Instagram-scoped user id. */
  chatId: Id,
  senderName: z.string().max(200).nullable(),
  externalMessageId: Id,
  text: z.string().max(10_000),
});
export type ChannelMessageReceived = z.infer<typeof ChannelMessageReceivedSchema>;

/**
 * An assistant message is being sent to a channel. Recorded on the message's own stream before anything
 * is sent: a worker that sees the message again finds it claimed, so a customer never gets it twice.
 */
export const ChannelReplyDispatchedSchema = z.object({
  messageId: Id,
  /** Null for a notice sent outside any conversation (the plan's monthly limit reached). */
  threadId: Id.nullable(),
  integrationId: Id,
  kind: ChannelKindSchema,
  chatId: Id,
  /** The parts the text was split into (each within the channel's length limit). */
  parts: z.number().int().positive(),
  author: z.enum(['assistant', 'owner']),
});
export type ChannelReplyDispatched = z.infer<typeof ChannelReplyDispatchedSchema>;

export const ChannelReplyDeliveredSchema = z.object({
  messageId: Id,
  integrationId: Id,
  externalMessageIds: z.array(z.string()),
  /** From the run's answer being recorded to the channel accepting the last part (ms). */
  sendMs: z.number().nonnegative(),
});
export type ChannelReplyDelivered = z.infer<typeof ChannelReplyDeliveredSchema>;

export const ChannelReplyFailedSchema = z.object({
  messageId: Id,
  integrationId: Id,
  /** The channel's own words (Telegram's description, Meta's error message). */
  error: z.string().min(1).max(1000),
});
export type ChannelReplyFailed = z.infer<typeof ChannelReplyFailedSchema>;

/** WhatsApp (and Instagram) report what became of a sent message: sent, delivered, read or failed. */
export const ChannelDeliveryStatusReportedSchema = z.object({
  integrationId: Id,
  kind: ChannelKindSchema,
  externalMessageId: Id,
  recipientId: z.string().nullable(),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  error: z.string().max(1000).nullable(),
  /** When the channel says it happened. */
  at: z.iso.datetime(),
});
export type ChannelDeliveryStatusReported = z.infer<typeof ChannelDeliveryStatusReportedSchema>;
