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
