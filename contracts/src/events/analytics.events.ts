import { z } from 'zod';

const Id = z.string().min(1);

/**
 * The limits whose refusals are recorded. `monthly_messages`: the plan's messages per month (counted over
 * the owner's assistants, visitors' messages included); `assistants`: max_assistants; `files`: max_files per
 * assistant; `storage`: the knowledge storage (bytes); `chat_limit`: the assistant's own messages per
 * conversation.
 */
export const LimitKindSchema = z.enum(['monthly_messages', 'assistants', 'files', 'storage', 'chat_limit']);
export type LimitKind = z.infer<typeof LimitKindSchema>;

/**
 * A limit refused something (the request was answered 403/413 and nothing else was recorded). It is a
 * fact about the refusal, for the owner's limits page and for analysts, never an input to a decision:
 * the limits themselves are enforced from their own streams and read models.
 */
export const LimitViolatedSchema = z.object({
  violationId: Id,
  /** The owner whose limit it is (for a visitor's refused message: the assistant's owner). */
  ownerId: Id,
  kind: LimitKindSchema,
  /** The limit in force, in the kind's unit (messages, assistants, files, bytes, messages per conversation). */
  limit: z.number().nonnegative(),
  /** What was already used when the request came, in the same unit. */
  used: z.number().nonnegative(),
  /** What the refused request asked for (bytes of an upload); null when it is one more of the kind. */
  requested: z.number().nonnegative().nullable(),
  assistantId: Id.nullable(),
  /** Who was refused: the owner, or a visitor of one of the owner's assistants. */
  refused: z.enum(['owner', 'visitor']),
});
export type LimitViolated = z.infer<typeof LimitViolatedSchema>;

/**
 * POST /analytics/track-query: a query the owner reports from outside Kesher's own chat (their API use,
 * a channel Kesher does not run). Chat messages are counted from their own events and need no tracking.
 */
export const QueryTrackedSchema = z.object({
  queryId: Id,
  ownerId: Id,
  assistantId: Id.nullable(),
  query: z.string().min(1).max(10_000),
  responseTimeMs: z.number().nonnegative().nullable(),
  success: z.boolean(),
  /** Where the owner says it came from (free text, e.g. `api`, `crm`). */
  source: z.string().min(1).max(100),
});
export type QueryTracked = z.infer<typeof QueryTrackedSchema>;
