import { z } from 'zod';
import { countWords, isWebUrl, limits } from '../rules/limits.js';
import { messages } from '../rules/messages.js';

const within1000Words = (message: string) => (text: string) => countWords(text) <= limits.textFieldWords || message;
/**
 * A long text field: the spec's 1000 words, and a character cap checked first, so that a few enormous
 * "words" (an 880 KB description was one of them) are refused before they are even counted.
 */
const words = (message: string, charsMessage: string) =>
  z
    .string()
    .max(limits.textFieldChars, { message: charsMessage, abort: true })
    .refine((t) => within1000Words(message)(t) === true, { message });

const OptionalUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => value === '' || isWebUrl(value), { message: messages.invalidWebsiteUrl })
  .nullish()
  .transform((value) => (value ? value : null));

export const NumericIdParamSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid assistant ID' })
    .int('Invalid assistant ID')
    .positive('Invalid assistant ID')
    .max(2_147_483_647, 'Invalid assistant ID'),
});

const CrawlerConfigSchema = z.object({
  url: OptionalUrl,
  max_pages: z.number().int().min(1).max(10_000).default(2000),
  max_depth: z.number().int().min(0).max(50).default(10),
  delete_orphaned_pages: z.boolean().default(false),
});

/**
 * Answered messages one visitor may get from the assistant per UTC day (beyond the spec, issue 21 item 12):
 * from 1 to 10,000; the default is limits.visitorDailyLimitDefault.
 */
const visitorDailyLimitInvalid = `The daily limit per visitor must be a whole number from 1 to ${limits.visitorDailyLimitMax}.`;
const VisitorDailyLimitSchema = z
  .number({ error: visitorDailyLimitInvalid })
  .int(visitorDailyLimitInvalid)
  .min(1, visitorDailyLimitInvalid)
  .max(limits.visitorDailyLimitMax, visitorDailyLimitInvalid);

/** POST /assistants/ (spec §3 create payload). */
export const CreateAssistantBodySchema = z.object({
  name: z.string({ error: messages.assistantNameRequired }).trim().min(1, messages.assistantNameRequired).max(200),
  description: words(messages.descriptionTooLong, messages.descriptionTooManyChars).pipe(
    z.string().trim().min(1, messages.requiredFields),
  ),
  instructions: words(messages.instructionsTooLong, messages.instructionsTooManyChars).pipe(
    z.string().trim().min(1, messages.requiredFields),
  ),
  chat_limit: z.number().int().min(1).max(1_000_000).default(limits.chatLimitDefault),
  visitor_daily_limit: VisitorDailyLimitSchema.optional(),
  website_url: OptionalUrl,
  avatar_url: OptionalUrl,
  sales_mode: z
    .object({
      enabled: z.boolean(),
      sales_prompt: words(messages.salesPromptTooLong, messages.salesPromptTooManyChars).default(''),
    })
    .nullish(),
  web_crawler: z.object({ enabled: z.boolean(), web_crawler_config: CrawlerConfigSchema.nullish() }).nullish(),
  /** Custom functions: accepted for compatibility; those Kesher cannot register come back as failed. */
  functions: z
    .array(z.object({ name: z.string().max(64) }).loose())
    .max(20)
    .optional(),
});
export type CreateAssistantBody = z.infer<typeof CreateAssistantBodySchema>;

export const CreateAssistantResponseSchema = z.object({
  assistant_id: z.number().int(),
  openai_assistant_id: z.string(),
  failed_functions: z.array(z.string()).optional(),
});

/** PUT /assistants/{id}: any subset of the editable fields. */
export const UpdateAssistantBodySchema = z
  .object({
    name: z.string().trim().min(1, messages.assistantNameRequired).max(200),
    description: words(messages.descriptionTooLong, messages.descriptionTooManyChars).pipe(
      z.string().trim().min(1, messages.requiredFields),
    ),
    instructions: words(messages.instructionsTooLong, messages.instructionsTooManyChars).pipe(
      z.string().trim().min(1, messages.requiredFields),
    ),
    chat_limit: z.number().int().min(1).max(1_000_000),
    visitor_daily_limit: VisitorDailyLimitSchema,
    website_url: OptionalUrl,
    avatar_url: OptionalUrl,
    web_crawler: z.object({
      enabled: z.boolean(),
      website_url: OptionalUrl,
      max_pages: z.number().int().min(1).max(10_000).default(50),
      max_depth: z.number().int().min(0).max(50).default(5),
      delete_orphaned_pages: z.boolean().default(false),
    }),
    payment_processing: z.object({
      enabled: z.boolean(),
      sales_prompt: words(messages.salesPromptTooLong, messages.salesPromptTooManyChars).default(''),
    }),
  })
  .partial();
export type UpdateAssistantBody = z.infer<typeof UpdateAssistantBodySchema>;

/** An assistant as the API returns it (spec §3). */
export const AssistantSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  chat_limit: z.number().int(),
  /** Answered messages per visitor per day (the owner's figure, or the default). Kesher always sends it; the client does not read it. */
  visitor_daily_limit: z.number().int().optional(),
  website_url: z.string().nullable(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  user_id: z.string(),
  openai_assistant_id: z.string(),
  share_token: z.string().nullable(),
  telegram_integration: z.object({ bot_username: z.string() }).nullable(),
  web_crawler: z.object({
    enabled: z.boolean(),
    website_url: z.string().nullable(),
    max_pages: z.number().int(),
    max_depth: z.number().int(),
    delete_orphaned_pages: z.boolean(),
  }),
  payment_processing: z.object({ enabled: z.boolean(), sales_prompt: z.string() }),
});
export type AssistantDto = z.infer<typeof AssistantSchema>;

/** What a visitor holding a share link may see of an assistant. */
export const SharedAssistantSchema = AssistantSchema.pick({
  id: true,
  name: true,
  description: true,
  avatar_url: true,
  openai_assistant_id: true,
});

export const ShareUrlSchema = z.object({ share_url: z.string() });
export const ShareTokenSchema = z.object({ share_url: z.string(), share_token: z.string() });
export const ShareTokenParamSchema = z.object({ token: z.string().min(1).max(256) });
