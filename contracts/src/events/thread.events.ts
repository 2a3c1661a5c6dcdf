import { z } from 'zod';

/** Where a conversation happens; analytics split by it (DESIGN §4). */
export const ChannelSchema = z.enum(['app', 'public_link', 'embed', 'telegram', 'whatsapp', 'instagram']);
export type Channel = z.infer<typeof ChannelSchema>;

export const MessageLanguageSchema = z.enum(['he', 'en', 'other']);
export type MessageLanguage = z.infer<typeof MessageLanguageSchema>;

const Id = z.string().min(1);

/**
 * A conversation began. A signed-in owner's thread has `ownerId`; a visitor's public thread has the
 * sha-256 of the visitor's session token instead (the token itself is a secret and never stored).
 */
export const ThreadStartedSchema = z.object({
  threadId: Id,
  assistantId: Id,
  /** The assistant's owner: every thread of an assistant is listed to its owner, public ones too. */
  assistantOwnerId: Id,
  ownerId: Id.nullable(),
  visitorSessionHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  isPublic: z.boolean(),
  channel: ChannelSchema,
  /**
   * A visitor's thread: the sha-256 of the share token it was opened through. Revoking or rotating the
   * link ends the conversation (nothing more is posted in it). Absent on threads recorded before.
   */
  shareTokenHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullish(),
  /**
   * A channel's conversation (Telegram, WhatsApp, Instagram): the integration and the customer's chat it
   * answers, and the name the channel gave. Absent on every other thread.
   */
  contact: z.object({ integrationId: Id, chatId: Id, name: z.string().max(200).nullable() }).nullish(),
});
export type ThreadStarted = z.infer<typeof ThreadStartedSchema>;

export const MessagePostedSchema = z.object({
  messageId: Id,
  threadId: Id,
  role: z.enum(['user', 'assistant']),
  text: z.string().max(100_000),
  channel: ChannelSchema,
  language: MessageLanguageSchema,
  /** The run that produced an assistant message; null for the user's own messages. */
  runId: Id.nullable(),
  /** Who wrote an assistant-side message: the assistant (a run), or the owner replying in a conversation they took over. */
  author: z.enum(['assistant', 'owner']).nullish(),
});
export type MessagePosted = z.infer<typeof MessagePostedSchema>;

export const RunRequestedSchema = z.object({
  runId: Id,
  threadId: Id,
  assistantId: Id,
  /** After this instant a run nobody finished is expired (DESIGN: none stays in progress forever). */
  deadlineAt: z.iso.datetime(),
});
export type RunRequested = z.infer<typeof RunRequestedSchema>;

export const RunStartedSchema = z.object({ runId: Id, threadId: Id, provider: z.string().min(1) });
export type RunStarted = z.infer<typeof RunStartedSchema>;

export const SourceSchema = z.object({
  fileId: Id,
  filename: z.string(),
  sourceUrl: z.string().nullable(),
  section: z.string().nullable(),
});
export type Source = z.infer<typeof SourceSchema>;

export const RunCompletedSchema = z.object({
  runId: Id,
  threadId: Id,
  /** The assistant message posted with this completion. */
  messageId: Id,
  responseMs: z.number().nonnegative(),
  /** From the run's request to the first words of the answer (ms); absent on runs recorded before it was kept. */
  firstTokenMs: z.number().nonnegative().nullish(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  sources: z.array(SourceSchema),
  /** Sales mode: the page the answer referred the visitor to. */
  referredUrl: z.string().nullable(),
});
export type RunCompleted = z.infer<typeof RunCompletedSchema>;

export const RunFailedSchema = z.object({
  runId: Id,
  threadId: Id,
  /** Readable; shown to the user as `last_error.message`. */
  error: z.string().min(1),
});
export type RunFailed = z.infer<typeof RunFailedSchema>;

export const RunExpiredSchema = z.object({ runId: Id, threadId: Id });
export type RunExpired = z.infer<typeof RunExpiredSchema>;

export const ThreadRenamedSchema = z.object({ threadId: Id, title: z.string().min(1).max(200) });
export type ThreadRenamed = z.infer<typeof ThreadRenamedSchema>;

export const ThreadDeletedSchema = z.object({ threadId: Id });
export type ThreadDeleted = z.infer<typeof ThreadDeletedSchema>;

/** The owner took a customer's conversation over: the assistant stops answering it until it is handed back. */
export const ThreadTakenOverSchema = z.object({ threadId: Id, ownerId: Id });
export type ThreadTakenOver = z.infer<typeof ThreadTakenOverSchema>;

export const ThreadHandedBackSchema = z.object({ threadId: Id, ownerId: Id });
export type ThreadHandedBack = z.infer<typeof ThreadHandedBackSchema>;

export const FeedbackGivenSchema = z.object({
  messageId: Id,
  threadId: Id,
  assistantId: Id,
  rating: z.enum(['like', 'dislike']),
  comment: z.string().max(500).nullable(),
  /** Who gave it: `account:<id>` or `visitor:<session hash>`; one feedback per message per author. */
  authorKey: Id,
  source: z.string().min(1),
  isPublic: z.boolean(),
});
export type FeedbackGiven = z.infer<typeof FeedbackGivenSchema>;
