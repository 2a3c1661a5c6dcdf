import { z } from 'zod';

/** The `asst_` + 24 alphanumerics identifier used when running an assistant (spec §3, §5). */
export const externalAssistantIdPattern = /^asst_[A-Za-z0-9]{24}$/;
export const ExternalAssistantIdSchema = z.string().regex(externalAssistantIdPattern);

export const WebCrawlerSettingsSchema = z.object({
  enabled: z.boolean(),
  website_url: z.string().nullable(),
  max_pages: z.number().int().positive(),
  max_depth: z.number().int().nonnegative(),
  delete_orphaned_pages: z.boolean(),
});
export type WebCrawlerSettings = z.infer<typeof WebCrawlerSettingsSchema>;

export const SalesModeSchema = z.object({
  enabled: z.boolean(),
  sales_prompt: z.string(),
});
export type SalesMode = z.infer<typeof SalesModeSchema>;

/** The fields an owner edits; shared by the created and updated events so they never drift apart. */
export const AssistantProfileSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  instructions: z.string(),
  chat_limit: z.number().int().positive(),
  /** Answered messages per visitor per day; absent: the default (limits.visitorDailyLimitDefault). */
  visitor_daily_limit: z.number().int().positive().optional(),
  website_url: z.string().nullable(),
  avatar_url: z.string().nullable(),
  web_crawler: WebCrawlerSettingsSchema,
  payment_processing: SalesModeSchema,
});
export type AssistantProfile = z.infer<typeof AssistantProfileSchema>;

export const AssistantCreatedSchema = z.object({
  assistantId: z.string().min(1),
  /** Numeric id shown in URLs; allocated by the facade, unique per installation. */
  numericId: z.number().int().positive(),
  externalId: ExternalAssistantIdSchema,
  ownerId: z.string().min(1),
  profile: AssistantProfileSchema,
});
export type AssistantCreated = z.infer<typeof AssistantCreatedSchema>;

export const AssistantUpdatedSchema = z.object({
  assistantId: z.string().min(1),
  /** Only the fields that changed. */
  changes: AssistantProfileSchema.partial(),
});
export type AssistantUpdated = z.infer<typeof AssistantUpdatedSchema>;

export const AssistantDeletedSchema = z.object({
  assistantId: z.string().min(1),
});
export type AssistantDeleted = z.infer<typeof AssistantDeletedSchema>;

/** A share link was issued (or rotated): visitors holding the token can chat with the assistant. */
export const ShareTokenGeneratedSchema = z.object({
  assistantId: z.string().min(1),
  token: z.string().min(16),
});
export type ShareTokenGenerated = z.infer<typeof ShareTokenGeneratedSchema>;

export const ShareTokenRevokedSchema = z.object({
  assistantId: z.string().min(1),
});
export type ShareTokenRevoked = z.infer<typeof ShareTokenRevokedSchema>;

/**
 * Plan limits (max_assistants): the owner's assistants hold slots on one stream per owner
 * (`assistantslots-<ownerId>`), so that concurrent creates conflict there and at most the plan's number
 * of slots are ever taken. A slot is taken before the assistant is created and freed when it is deleted.
 */
export const AssistantSlotTakenSchema = z.object({
  ownerId: z.string().min(1),
  assistantId: z.string().min(1),
});
export type AssistantSlotTaken = z.infer<typeof AssistantSlotTakenSchema>;

export const AssistantSlotFreedSchema = AssistantSlotTakenSchema;
export type AssistantSlotFreed = z.infer<typeof AssistantSlotFreedSchema>;

/**
 * Plan limits (max_files, per assistant): a knowledge file holds a slot on its assistant's stream,
 * taken before the upload is recorded and freed when the file is deleted. The assistant's stream thereby
 * also orders uploads against the assistant's deletion.
 */
export const KnowledgeFileSlotTakenSchema = z.object({
  assistantId: z.string().min(1),
  fileId: z.string().min(1),
  /**
   * Which of the plan's limits the slot counts against: `crawl` for a crawled page (max_crawl_pages);
   * absent for an uploaded file (max_files). Absent on every slot recorded before crawled pages had their own.
   */
  pool: z.enum(['crawl']).optional(),
});
export type KnowledgeFileSlotTaken = z.infer<typeof KnowledgeFileSlotTakenSchema>;

export const KnowledgeFileSlotFreedSchema = KnowledgeFileSlotTakenSchema;
export type KnowledgeFileSlotFreed = z.infer<typeof KnowledgeFileSlotFreedSchema>;

/**
 * Curated answers (issue 26): the owner's own answer to a question, which wins over retrieval. Kept on the
 * assistant's stream, so the plan's count is decided there and the assistant's deletion orders after them.
 * `sourceThreadId`: the conversation the owner improved the answer from, when it came from one.
 */
export const AnswerCuratedSchema = z.object({
  assistantId: z.string().min(1),
  ownerId: z.string().min(1),
  qaId: z.string().min(1),
  question: z.string().min(1),
  answer: z.string().min(1),
  curatedBy: z.string().min(1),
  sourceThreadId: z.string().min(1).optional(),
});
export type AnswerCurated = z.infer<typeof AnswerCuratedSchema>;

export const CuratedAnswerEditedSchema = z.object({
  assistantId: z.string().min(1),
  ownerId: z.string().min(1),
  qaId: z.string().min(1),
  question: z.string().min(1),
  answer: z.string().min(1),
});
export type CuratedAnswerEdited = z.infer<typeof CuratedAnswerEditedSchema>;

export const CuratedAnswerDeletedSchema = z.object({
  assistantId: z.string().min(1),
  qaId: z.string().min(1),
});
export type CuratedAnswerDeleted = z.infer<typeof CuratedAnswerDeletedSchema>;
