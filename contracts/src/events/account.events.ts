import { z } from 'zod';

export const AccountRegisteredSchema = z.object({
  accountId: z.string().min(1),
  email: z.email(),
  displayName: z.string().max(200).nullable(),
  /** Hash of the password (memory-hard KDF); null for accounts that sign in with Google only. */
  passwordHash: z.string().nullable(),
  provider: z.enum(['password', 'google', 'demo']),
  photoUrl: z.string().nullable().default(null),
});
export type AccountRegistered = z.infer<typeof AccountRegisteredSchema>;

/**
 * The account's holder proved they read mail at its address: they followed a verification link, or a
 * password-reset link (which reaches only the mailbox). Only a verified address may be joined by
 * another sign-in method (Google) or make its holder an operator.
 */
export const AccountEmailVerifiedSchema = z.object({
  accountId: z.string().min(1),
  email: z.email(),
});
export type AccountEmailVerified = z.infer<typeof AccountEmailVerifiedSchema>;

/** A new password set from a reset link; every session of the account opened before it ends. */
export const AccountPasswordResetSchema = z.object({
  accountId: z.string().min(1),
  passwordHash: z.string().min(1),
});
export type AccountPasswordReset = z.infer<typeof AccountPasswordResetSchema>;

/**
 * An account that never proved its address lost it to someone who did (a verified Google identity):
 * the account can no longer be signed into — no password, no sessions — and its data stays with it,
 * unseen, while the address starts a new account.
 */
export const AccountAddressReleasedSchema = z.object({
  accountId: z.string().min(1),
  email: z.email(),
  reason: z.enum(['claimed-by-verified-google']),
});
export type AccountAddressReleased = z.infer<typeof AccountAddressReleasedSchema>;
