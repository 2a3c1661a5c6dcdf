import { z } from 'zod';
import { messages } from '../rules/messages.js';

/** Password rules of the register page (spec §5), checked in this order; the first failure is reported. */
export const passwordRules: readonly { test: (password: string) => boolean; message: string }[] = [
  { test: (p) => p.length >= 10, message: 'Password must be at least 10 characters long' },
  { test: (p) => /\p{Lu}/u.test(p), message: 'Password must contain at least one uppercase letter' },
  { test: (p) => /\p{Ll}/u.test(p), message: 'Password must contain at least one lowercase letter' },
  { test: (p) => /\p{Nd}/u.test(p), message: 'Password must contain at least one number' },
  { test: (p) => /[\p{P}\p{S}]/u.test(p), message: 'Password must contain at least one special character' },
];

export const firstPasswordProblem = (password: string) => passwordRules.find((rule) => !rule.test(password))?.message;

const EmailSchema = z
  .string({ error: messages.invalidEmail })
  .trim()
  .max(254, messages.invalidEmail)
  .pipe(z.email({ error: messages.invalidEmail }))
  .transform((email) => email.toLowerCase());

export const RegisterBodySchema = z.object({
  email: EmailSchema,
  password: z
    .string()
    .max(256, 'Password is too long')
    .superRefine((password, ctx) => {
      const problem = firstPasswordProblem(password);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  display_name: z.string().trim().max(100).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const LoginBodySchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'Password is required').max(256),
});

export const GoogleSignInBodySchema = z.object({
  id_token: z.string().min(20).max(8192),
});

/** The signed-in user as the client shows it (spec §3). */
export const UserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  username: z.string(),
  photoURL: z.string().nullable(),
  providerId: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const SessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  user: UserSchema,
});

export const AuthConfigSchema = z.object({
  google_client_id: z.string().nullable(),
  demo_accounts: z.boolean(),
});
