import {
  accountMessages,
  AuthConfigSchema,
  DetailAnswerSchema,
  ForgotPasswordBodySchema,
  GoogleSignInBodySchema,
  LoginBodySchema,
  RegisterBodySchema,
  ResetPasswordBodySchema,
  SessionSchema,
  signInMessages,
  UserSchema,
  VerifyEmailBodySchema,
  type User,
} from '@kesher/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type {
  AccountRegistration,
  Authenticator,
  EmailOwnership,
  GoogleSignIn,
  GoogleVerifier,
  LoginThrottle,
  PasswordHasher,
  SessionStore,
  SignedInAccount,
  TokenIssuer,
} from '../../../identity/index.js';
import type { AccountDeletion } from '../../../privacy/index.js';
import { DomainError } from '../../../platform/commands/decider.js';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface AuthRoutesDeps {
  passwords: PasswordHasher;
  tokens: TokenIssuer;
  sessions: SessionStore;
  throttle: LoginThrottle;
  authenticator: Authenticator;
  registration: AccountRegistration;
  /** Verification and password-reset links by e-mail. */
  ownership: EmailOwnership;
  google: { clientId: string; verify: GoogleVerifier; signIn: GoogleSignIn } | null;
  demoAccounts: boolean;
  /** "Delete my account" (privacy/account-deletion); without it DELETE /auth/me answers 501. */
  deleteAccount?: AccountDeletion;
}

/** What DELETE /auth/me answers (the client shows its own he/en texts for each, by status). */
export const accountDeletionMessages = {
  deleted: 'Your account and its data were deleted.',
  passwordRequired: 'Please enter your password to delete your account.',
  wrongPassword: 'The password is incorrect.',
  signInAgain: 'Please sign in again, then delete your account within 10 minutes.',
  unavailable: 'Account deletion is not available on this server.',
} as const;

/** A Google (or demo) account has no password to re-enter: its session must be this fresh instead. */
const FRESH_SIGN_IN_MS = 10 * 60_000;

const INVALID_CREDENTIALS = signInMessages.invalidCredentials;
const TOO_MANY_LOGINS = signInMessages.tooManyAttempts;
/** Auth endpoints get a tighter per-address limit than the rest of the API. */
const authRateLimit = {
  rateLimit: { max: 30, timeWindow: 60_000, keyGenerator: (request: { ip: string }) => `auth:${request.ip}` },
};
/**
 * "Forgot password?" makes us send mail to an address the asker names: one address may ask a few times
 * per quarter hour, whichever addresses it names (and each account gets at most a few links an hour).
 */
const forgotRateLimit = {
  rateLimit: { max: 5, timeWindow: 15 * 60_000, keyGenerator: (request: { ip: string }) => `forgot:${request.ip}` },
};

export function toUser(account: SignedInAccount): User {
  return {
    uid: account.id,
    email: account.email,
    displayName: account.displayName,
    username: account.displayName ?? account.email.split('@')[0]!,
    photoURL: account.photoUrl,
    providerId: account.provider === 'google' ? 'google.com' : 'password',
    emailVerified: account.emailVerified,
  };
}

export const authRoutes =
  (deps: AuthRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();

    async function session(account: SignedInAccount) {
      // A sign-in is the owner's activity: the retention run's inactivity period counts from it.
      await deps.sessions.signedIn(account.id);
      // The address rides along so the authenticator can find a just-registered account in the log.
      const { token } = await deps.tokens.issue(account.id, account.sessionGeneration, account.email);
      return {
        access_token: token,
        token_type: 'bearer' as const,
        expires_in: deps.tokens.ttlSeconds,
        user: toUser(account),
      };
    }

    app.get(
      '/auth/config',
      { schema: { summary: 'What sign-in methods this server offers', response: { 200: AuthConfigSchema } } },
      async () => ({
        google_client_id: deps.google?.clientId ?? null,
        demo_accounts: deps.demoAccounts,
      }),
    );

    app.post(
      '/auth/register',
      {
        config: authRateLimit,
        schema: {
          summary: 'Create an account with e-mail and password',
          body: RegisterBodySchema,
          response: { 201: SessionSchema },
        },
      },
      async (request, reply) => {
        const { email, password, display_name } = request.body;
        let account: SignedInAccount;
        try {
          ({ account } = await deps.registration(
            {
              email,
              passwordHash: await deps.passwords.hash(password),
              displayName: display_name || null,
              photoUrl: null,
              provider: 'password',
            },
            request.id,
          ));
        } catch (error) {
          if (error instanceof DomainError && error.kind === 'conflict') throw new ApiError(409, error.message);
          throw error;
        }
        deps.ownership.welcome({ id: account.id, email: account.email });
        // The session is made from what the registration decided, not read back from the accounts read model.
        return reply.status(201).send(await session(account));
      },
    );

    app.post(
      '/auth/login',
      {
        config: authRateLimit,
        schema: {
          summary: 'Sign in with e-mail and password',
          body: LoginBodySchema,
          response: { 200: SessionSchema },
        },
      },
      async (request) => {
        const { email, password } = request.body;
        const wait = await deps.throttle.retryAfterMs(email, request.ip);
        if (wait > 0) throw new ApiError(429, TOO_MANY_LOGINS, { 'retry-after': String(Math.ceil(wait / 1000)) });
        const account = await deps.sessions.accountByEmail(email);
        // The same answer, after the same work, whether the address is unknown or the password wrong: the
        // hasher checks a dummy hash when there is no account, so neither the text nor the time tells.
        const valid = await deps.passwords.verify(password, account?.passwordHash);
        if (!account || !valid) {
          await deps.throttle.recordFailure(email, request.ip);
          throw new ApiError(401, INVALID_CREDENTIALS);
        }
        await deps.throttle.recordSuccess(email, request.ip);
        return session(account);
      },
    );

    app.post(
      '/auth/google',
      {
        config: authRateLimit,
        schema: {
          summary: 'Sign in (or sign up) with a Google ID token',
          body: GoogleSignInBodySchema,
          response: { 200: SessionSchema },
        },
      },
      async (request) => {
        if (!deps.google) throw new ApiError(501, signInMessages.googleNotConfigured);
        const identity = await deps.google.verify(request.body.id_token);
        if (!identity) throw new ApiError(401, signInMessages.googleFailed);
        return session(await deps.google.signIn(identity, request.id));
      },
    );

    app.post(
      '/auth/forgot-password',
      {
        config: forgotRateLimit,
        schema: {
          summary: 'Mail a password-reset link (the same answer for every address)',
          body: ForgotPasswordBodySchema,
          response: { 202: DetailAnswerSchema },
        },
      },
      async (request, reply) => {
        await deps.ownership.requestPasswordReset(request.body.email);
        return reply.status(202).send({ detail: accountMessages.resetRequested });
      },
    );

    app.post(
      '/auth/reset-password',
      {
        config: authRateLimit,
        schema: {
          summary: 'Set a new password with a reset link; every session of the account ends',
          body: ResetPasswordBodySchema,
          response: { 200: DetailAnswerSchema },
        },
      },
      async (request) => {
        await deps.ownership.resetPassword(request.body.token, request.body.password, request.id);
        return { detail: accountMessages.passwordReset };
      },
    );

    app.post(
      '/auth/verify-email',
      {
        config: authRateLimit,
        schema: {
          summary: "Verify the account's e-mail address with the mailed link",
          body: VerifyEmailBodySchema,
          response: { 200: DetailAnswerSchema },
        },
      },
      async (request) => {
        await deps.ownership.verifyEmail(request.body.token, request.id);
        return { detail: accountMessages.emailVerified };
      },
    );

    app.post(
      '/auth/verify-email/resend',
      {
        config: authRateLimit,
        schema: {
          summary: 'Mail the signed-in owner a new verification link',
          response: { 202: DetailAnswerSchema, 200: DetailAnswerSchema },
        },
      },
      async (request, reply) => {
        const outcome = await deps.ownership.resendVerification(requireAccount(request));
        if (outcome === 'throttled') throw new ApiError(429, accountMessages.tooManyMails, { 'retry-after': '3600' });
        if (outcome === 'already-verified') return reply.status(200).send({ detail: accountMessages.alreadyVerified });
        return reply.status(202).send({ detail: accountMessages.verificationSent });
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          summary: 'Sign out: the token stops working at once',
          response: { 200: z.object({ detail: z.string() }) },
        },
      },
      async (request) => {
        requireAccount(request);
        await deps.authenticator.signOut(request.session!.token, request.session!.claims);
        return { detail: 'Signed out' };
      },
    );

    app.get('/auth/me', { schema: { summary: 'The signed-in user', response: { 200: UserSchema } } }, async (request) =>
      toUser(requireAccount(request)),
    );

    app.delete(
      '/auth/me',
      {
        config: authRateLimit,
        schema: {
          summary:
            'Delete the account: subscription cancelled, channels disconnected, Drive revoked, sessions ended, personal data erased',
          body: z.object({ password: z.string().max(1024).optional() }).optional(),
          response: { 200: DetailAnswerSchema },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        if (!deps.deleteAccount) throw new ApiError(501, accountDeletionMessages.unavailable);
        const stored = await deps.sessions.accountByEmail(account.email);
        if (stored?.passwordHash) {
          // The password again: a token left open on a shared computer must not be enough to delete everything.
          const password = request.body?.password;
          if (!password) throw new ApiError(400, accountDeletionMessages.passwordRequired);
          const wait = await deps.throttle.retryAfterMs(account.email, request.ip);
          if (wait > 0) throw new ApiError(429, TOO_MANY_LOGINS, { 'retry-after': String(Math.ceil(wait / 1000)) });
          if (!(await deps.passwords.verify(password, stored.passwordHash))) {
            await deps.throttle.recordFailure(account.email, request.ip);
            throw new ApiError(403, accountDeletionMessages.wrongPassword);
          }
        } else {
          const issuedAt = request.session!.claims.expiresAt.getTime() - deps.tokens.ttlSeconds * 1000;
          if (Date.now() - issuedAt > FRESH_SIGN_IN_MS) throw new ApiError(403, accountDeletionMessages.signInAgain);
        }
        await deps.deleteAccount({ id: account.id, email: account.email });
        return { detail: accountDeletionMessages.deleted };
      },
    );
  };
