import { z } from 'zod';

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
