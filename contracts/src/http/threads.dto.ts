import { z } from 'zod';
import { chatInputProblem, chatMessages } from '../rules/chat.js';
import { limits } from '../rules/limits.js';
import { externalAssistantIdPattern } from '../events/assistant.events.js';
import { ChannelSchema } from '../events/thread.events.js';
import { threadMessages } from './errors.catalogue.js';

/** Thread, run and message ids Kesher issues: a prefix and letters/digits (spec §5: non-empty strings). */
const idLike = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(100, message)
    .regex(/^[A-Za-z0-9_-]+$/, message);
export const ThreadIdSchema = idLike(chatMessages.invalidThreadId);
export const RunIdSchema = idLike(chatMessages.invalidRunId);
export const MessageIdSchema = idLike(threadMessages.invalidMessageId);

/** A visitor's session token: random (the embed stores 64 hex characters), never derived from anything. */
export const SessionTokenSchema = z
  .string({ error: chatMessages.sessionTokenRequired })
  .min(16, chatMessages.sessionTokenRequired)
  .max(256);

/** The numeric assistant id of the dashboard; the client may send it as a number or a numeric string. */
const NumericAssistantId = z.coerce
  .number({ error: chatMessages.invalidAssistantId })
  .int(chatMessages.invalidAssistantId)
  .positive(chatMessages.invalidAssistantId)
  .max(2_147_483_647, chatMessages.invalidAssistantId);

/** POST /threads/ */
export const CreateThreadBodySchema = z.object({ assistant_id: NumericAssistantId });

/** POST /threads/public: the share token proves the visitor came through the owner's link. */
export const CreatePublicThreadBodySchema = z.object({
  assistant_id: NumericAssistantId,
  share_token: z.string({ error: chatMessages.invalidShareLink }).min(1, chatMessages.invalidShareLink).max(256),
  /** The visitor's own token (the embed keeps one per assistant); one is issued when missing. */
  session_token: SessionTokenSchema.optional(),
  channel: z.enum(['public_link', 'embed']).default('public_link'),
});

export const CreateThreadResponseSchema = z.object({
  thread_id: z.string(),
  id: z.string(),
  created_at: z.number().int(),
  /** Public threads only: the token that must accompany every later call on this thread. */
  session_token: z.string().optional(),
});

/** Message text as sent (spec §5, §9): trimmed, non-empty, ≤ 10,000 characters, and the chat input rules. */
export const MessageContentSchema = z
  .string({ error: chatMessages.emptyMessage })
  .trim()
  .min(1, chatMessages.emptyMessage)
  .max(limits.messageMaxChars, chatMessages.messageTooLong)
  .superRefine((text, ctx) => {
    const problem = chatInputProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const PostMessageBodySchema = z.object({ content: MessageContentSchema });
export const PostPublicMessageBodySchema = PostMessageBodySchema.extend({ session_token: SessionTokenSchema });

/** POST /threads/{id}/runs: the chat sends `assistant_id` or `openai_assistant_id` (spec §7). */
const RunAssistantId = z
  .string({ error: chatMessages.invalidAssistantId })
  .regex(externalAssistantIdPattern, chatMessages.invalidAssistantIdFormat);
/**
 * The visitor's or owner's message, posted with the run (OpenAI's `additional_messages`): the chat's send
 * is then one call instead of two, with the same checks and refusals as POST …/messages.
 */
const AdditionalMessagesSchema = z
  .array(
    z.object({ role: z.literal('user', { error: chatMessages.onlyUserMessages }), content: MessageContentSchema }),
    { error: chatMessages.onlyUserMessages },
  )
  .min(1, chatMessages.emptyMessage)
  .max(1, chatMessages.oneMessagePerRun);
export const CreateRunBodySchema = z
  .object({
    assistant_id: RunAssistantId.optional(),
    openai_assistant_id: RunAssistantId.optional(),
    additional_messages: AdditionalMessagesSchema.optional(),
  })
  .refine((body) => body.assistant_id ?? body.openai_assistant_id, { message: chatMessages.invalidAssistantId })
  .transform((body) => ({
    assistant_id: (body.assistant_id ?? body.openai_assistant_id)!,
    content: body.additional_messages?.[0]?.content,
  }));
export const CreatePublicRunBodySchema = z
  .object({
    assistant_id: RunAssistantId.optional(),
    openai_assistant_id: RunAssistantId.optional(),
    session_token: SessionTokenSchema,
    additional_messages: AdditionalMessagesSchema.optional(),
  })
  .refine((body) => body.assistant_id ?? body.openai_assistant_id, { message: chatMessages.invalidAssistantId })
  .transform((body) => ({
    assistant_id: (body.assistant_id ?? body.openai_assistant_id)!,
    session_token: body.session_token,
    content: body.additional_messages?.[0]?.content,
  }));

export const SessionQuerySchema = z.object({ session_token: SessionTokenSchema });

export const MessageSourceSchema = z.object({
  file_id: z.string(),
  filename: z.string(),
  source_url: z.string().nullable(),
  section: z.string().nullable(),
  /** A crawled page's title, when the crawl found one: what the chat names the source by (its filename is internal). */
  title: z.string().nullable().optional(),
});

/** A message as the server sends it (spec §3): content is a list whose first item has `text.value`. */
export const MessageSchema = z.object({
  id: z.string(),
  object: z.literal('thread.message'),
  thread_id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.array(
    z.object({ type: z.literal('text'), text: z.object({ value: z.string(), annotations: z.array(z.unknown()) }) }),
  ),
  created_at: z.number().int().describe('seconds since epoch'),
  run_id: z.string().nullable(),
  sources: z.array(MessageSourceSchema),
});
export type MessageDto = z.infer<typeof MessageSchema>;

export const MessageListSchema = z.object({ object: z.literal('list'), data: z.array(MessageSchema) });

export const RunStatusSchema = z.enum(['queued', 'in_progress', 'requires_action', 'completed', 'failed', 'expired']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RunSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  object: z.literal('thread.run'),
  thread_id: z.string(),
  assistant_id: z.string(),
  status: RunStatusSchema,
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.number().int(),
  expires_at: z.number().int(),
  completed_at: z.number().int().nullable(),
  /** The assistant message this run posted, once completed. */
  message_id: z.string().nullable(),
});
export type RunDto = z.infer<typeof RunSchema>;
/** POST …/runs: the run, and the message posted with it when the call carried one (additional_messages). */
export const CreatedRunSchema = RunSchema.extend({
  user_message: MessageSchema.optional(),
  /**
   * The owner's run only: sent back as the X-Run-Grant header of GET …/runs/{id}/stream, it opens that
   * run's stream without the bearer token until shortly after the run's deadline (the server then reads
   * neither the session nor the conversation before the answer). Opaque.
   */
  stream_grant: z.string().optional(),
});
export type CreatedRunDto = z.infer<typeof CreatedRunSchema>;

/** A conversation in the Chat History list (spec §3 Thread). */
export const ThreadSchema = z.object({
  id: z.string(),
  thread_id: z.string(),
  openai_thread_id: z.string(),
  title: z.string(),
  created_at: z.number().int(),
  /**
   * A visitor's conversation (public link or widget). The owner may read, rename and delete it from Chat
   * History, but not write in it: show it read-only.
   */
  is_public: z.boolean(),
  assistant_id: z.number().int(),
  /** Where the conversation happens: `app` (the owner's own chat), `public_link`, `embed`, … */
  channel: ChannelSchema,
});
export type ThreadDto = z.infer<typeof ThreadSchema>;

export const RenameThreadBodySchema = z.object({
  title: z.string({ error: chatMessages.titleRequired }).trim().min(1, chatMessages.titleRequired).max(200),
});

/** POST /feedback and /feedback/public (spec §3 Feedback). */
export const FeedbackBodySchema = z.object({
  assistant_id: z.union([z.string(), z.number()]).transform(String),
  thread_id: ThreadIdSchema,
  message_id: MessageIdSchema,
  rating: z.enum(['like', 'dislike']),
  comment: z
    .string()
    .trim()
    .max(limits.feedbackCommentChars, chatMessages.feedbackCommentTooLong)
    .nullish()
    .transform((c) => (c ? c : null)),
  source: z.string().trim().min(1).max(40).default('chat'),
  is_public: z.boolean().optional(),
});
export const PublicFeedbackBodySchema = FeedbackBodySchema.extend({ session_token: SessionTokenSchema });
export const FeedbackResponseSchema = z.object({ detail: z.string(), rating: z.enum(['like', 'dislike']) });
