import { z } from 'zod';
import { messages } from '../rules/messages.js';
import { passwordMessages } from './errors.catalogue.js';

/** Password rules of the register page (spec §5), checked in this order; the first failure is reported. */
export const passwordRules: readonly { test: (password: string) => boolean; message: string }[] = [
  { test: (p) => p.length >= 10, message: passwordMessages.tooShort },
  { test: (p) => /\p{Lu}/u.test(p), message: passwordMessages.noUppercase },
  { test: (p) => /\p{Ll}/u.test(p), message: passwordMessages.noLowercase },
  { test: (p) => /\p{Nd}/u.test(p), message: passwordMessages.noNumber },
  { test: (p) => /[\p{P}\p{S}]/u.test(p), message: passwordMessages.noSpecial },
];

export const firstPasswordProblem = (password: string) => passwordRules.find((rule) => !rule.test(password))?.message;

const EmailSchema = z
  .string({ error: messages.invalidEmail })
  .trim()
  .max(254, messages.invalidEmail)
  .pipe(z.email({ error: messages.invalidEmail }))
  .transform((email) => email.toLowerCase());

/** A new password (registration, reset): the register page's rules, the first failure reported. */
const NewPasswordSchema = z
  .string()
  .max(256, passwordMessages.tooLong)
  .superRefine((password, ctx) => {
    const problem = firstPasswordProblem(password);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const RegisterBodySchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  display_name: z.string().trim().max(100).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const LoginBodySchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, passwordMessages.required).max(256),
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
  /**
   * Whether the owner proved the address (a verification or reset link, or Google). Unverified owners
   * work as before but are nudged to verify; an answer without it (an older server) counts as verified.
   */
  emailVerified: z.boolean().default(true),
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

/** The texts of e-mail ownership: verification and password reset by e-mail. */
export const accountMessages = {
  /** The same answer whether or not the address has an account, so the form cannot list who has one. */
  resetRequested:
    "If an account exists for this email address, we've sent it a link to reset the password. Please check your inbox.",
  resetLinkInvalid: 'This password reset link is invalid, has expired or was already used. Please ask for a new one.',
  passwordReset:
    'Your password has been changed and your account was signed out everywhere. Please sign in with your new password.',
  verifyLinkInvalid: 'This verification link is invalid, has expired or was already used. Please ask for a new one.',
  emailVerified: 'Your email address is verified. Thank you!',
  verificationSent: "We've sent you a new verification link. Please check your inbox.",
  alreadyVerified: 'Your email address is already verified.',
  tooManyMails: 'Too many emails were requested. Please wait a while before asking again.',
  linkMalformed: 'This link is incomplete. Please open it again from the email, or ask for a new one.',
} as const;

/** A link's one-time token (URL-safe base64 of 32 random bytes). */
const LinkTokenSchema = z
  .string({ error: accountMessages.linkMalformed })
  .trim()
  .min(20, accountMessages.linkMalformed)
  .max(200, accountMessages.linkMalformed)
  .regex(/^[A-Za-z0-9_-]+$/, accountMessages.linkMalformed);

export const ForgotPasswordBodySchema = z.object({ email: EmailSchema });

export const ResetPasswordBodySchema = z.object({
  token: LinkTokenSchema,
  password: NewPasswordSchema,
});

export const VerifyEmailBodySchema = z.object({ token: LinkTokenSchema });

/** A plain confirmation (the texts of accountMessages). */
export const DetailAnswerSchema = z.object({ detail: z.string() });
