import { z } from 'zod';
import { ANALYTICS_MAX_DAYS } from '../rules/analytics.js';
import { chatMessages } from '../rules/chat.js';

/** Curated answers' caps (issue 26): a question is one question, an answer as long as a profile text. */
export const curatedLimits = {
  questionChars: 1_000,
  answerChars: 20_000,
  /** One CSV import: at most this many bytes. */
  importChars: 2_000_000,
} as const;

/** The user-facing texts of curated answers; the client shows them in both languages by `code`. */
export const curatedMessages = {
  required: 'Please write both the question and the answer.',
  tooLong: `The question is too long (max ${curatedLimits.questionChars} characters) or the answer is (max ${curatedLimits.answerChars}).`,
  notFound: 'This question and answer no longer exists.',
  limitReached: (limit: number) =>
    `This assistant has reached its plan's limit of ${limit} questions and answers. Delete some or upgrade the plan to add more.`,
  badCsv: 'The file is not a CSV with the columns question,answer.',
} as const;

export const QaIdSchema = z.string().regex(/^qa_[a-f0-9]{24}$/, 'Invalid question and answer ID');
export const QaParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid assistant ID' })
    .int('Invalid assistant ID')
    .positive('Invalid assistant ID')
    .max(2_147_483_647, 'Invalid assistant ID'),
  qa_id: QaIdSchema,
});

export const QaBodySchema = z.object({
  question: z.string().max(curatedLimits.questionChars, curatedMessages.tooLong),
  answer: z.string().max(curatedLimits.answerChars, curatedMessages.tooLong),
  /** "Improve this answer": the conversation the owner corrected, recorded with the Q&A. */
  thread_id: z.string().min(1).max(200).optional(),
});
export type QaBody = z.infer<typeof QaBodySchema>;

export const QaSchema = z.object({
  qa_id: z.string(),
  question: z.string(),
  answer: z.string(),
  /** How many answers it gave in the last 30 days. */
  hits_30d: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type Qa = z.infer<typeof QaSchema>;
export const QaListSchema = z.array(QaSchema);

export const QaImportBodySchema = z.object({ csv: z.string().max(curatedLimits.importChars) });
/** `skipped`: rows the assistant already had, word for word (importing a file twice adds nothing). */
export const QaImportResultSchema = z.object({
  imported: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});

/**
 * Curated answers in analytics (issue 26 item 4), `GET /analytics/curated-answers`: over the last `days`
 * days (UTC, default 30), of all the owner's assistants or of one (`assistant_id`), how many answers came
 * from the Q&A, the Q&A that answered most, and visitors' questions answered with no source (newest
 * first, at most `limit`), each ready to become a Q&A.
 */
export const CuratedAnalyticsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(ANALYTICS_MAX_DAYS).default(30),
  assistant_id: z.coerce
    .number({ error: chatMessages.invalidAssistantId })
    .int(chatMessages.invalidAssistantId)
    .positive(chatMessages.invalidAssistantId)
    .max(2_147_483_647, chatMessages.invalidAssistantId)
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type CuratedAnalyticsQuery = z.infer<typeof CuratedAnalyticsQuerySchema>;

const Count = z.number().int().nonnegative();
/** An assistant as the owner knows it: its numeric id (the Q&A routes take it) and its name. */
const NamedAssistantFields = { assistant_id: z.number().int().positive(), assistant_name: z.string() };

export const CuratedAnalyticsSchema = z.object({
  period: z.object({ days: Count, start_date: z.string(), end_date: z.string() }),
  /** Completed answers in the period. */
  answers: Count,
  /** Of them, answered from the owner's Q&A. */
  curated_answers: Count,
  /** curated_answers as a percentage of answers; null without answers. */
  curated_share: z.number().min(0).max(100).nullable(),
  /** Of them, answered with no source at all (the built-in engine's "I couldn't find an answer" included). */
  unsourced_answers: Count,
  top_questions: z.array(z.object({ qa_id: z.string(), question: z.string(), hits: Count, ...NamedAssistantFields })),
  unanswered: z.object({
    /** Every asking of the listed questions in the period. */
    total: Count,
    /** Distinct questions (the same words, case and punctuation aside, once). */
    questions: Count,
    items: z.array(
      z.object({
        question: z.string(),
        times: Count,
        last_asked_at: z.string(),
        /** The conversation it was last asked in: a Q&A added from the list names it. */
        thread_id: z.string(),
        ...NamedAssistantFields,
      }),
    ),
  }),
});
export type CuratedAnalytics = z.infer<typeof CuratedAnalyticsSchema>;
