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
