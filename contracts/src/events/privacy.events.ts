import { z } from 'zod';

/**
 * The owner deleted their account (DELETE /auth/me), on the account's own stream: the address is free to
 * start a new account there, as after AccountAddressReleased. What the account owned is shredded next
 * (SubjectErased), so this event says only which account and when.
 */
export const AccountDeletedSchema = z.object({
  accountId: z.string().min(1),
});
export type AccountDeleted = z.infer<typeof AccountDeletedSchema>;

/** The data subjects personal fields are sealed for (personal-data.ts, docs/privacy.md). */
export const SubjectKindSchema = z.enum(['account', 'thread', 'channel_contact']);
export type SubjectKind = z.infer<typeof SubjectKindSchema>;

/**
 * A data subject's key was deleted: its personal fields read "[erased]" everywhere from now on, replays
 * included. Proof that the erasure happened — who asked, when, why, which subject — without what was
 * erased: `keyId` is the subject's key name (a channel contact's is a keyed hash, not the chat id).
 */
export const SubjectErasedSchema = z.object({
  erasureId: z.string().min(1),
  subject: SubjectKindSchema,
  keyId: z.string().min(1),
  /** The account the subject belonged to (the owner's own id for an account), when known. */
  ownerId: z.string().min(1).nullable(),
  /** For a thread: its id, so read models find its rows without a lookup. */
  threadId: z.string().min(1).nullable(),
  reason: z.enum(['account_deleted', 'visitor_request', 'retention', 'inactive_account']),
  /** `account:<id>`, `visitor:<session hash>` or `system:<job>`. */
  actor: z.string().min(1),
  /** Keys shredded with it: an account's threads and contacts, a contact's threads. */
  dependentKeys: z.number().int().nonnegative(),
});
export type SubjectErased = z.infer<typeof SubjectErasedSchema>;

/**
 * The keyword counts an erased conversation contributed to its owner's analytics, recorded on the
 * conversation's stream just before its key is shredded, so a replay from zero counts what the live read
 * model counted (the messages themselves then read "[erased]"). Only what the keyword counts need: per
 * message that was sealed, its day, its side and its keywords (the analytics tokeniser's words: no stop
 * words, numbers or address fragments) — never the text. The trade-off is in docs/privacy.md.
 */
export const KeywordsRetainedSchema = z.object({
  threadId: z.string().min(1),
  /** The conversation's sealed messages, in log order. */
  messages: z.array(
    z.object({
      day: z.iso.date(),
      source: z.enum(['customer', 'assistant']),
      keywords: z.array(z.object({ key: z.string().min(1), label: z.string().min(1) })),
    }),
  ),
  /** Messages of the conversation stored in clear before the codec existed: a replay still reads (and counts) them. */
  plain: z.number().int().nonnegative(),
});
export type KeywordsRetained = z.infer<typeof KeywordsRetainedSchema>;
