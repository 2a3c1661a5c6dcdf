import { randomUUID } from 'node:crypto';
import { accountMessages } from '@kesher/contracts';
import type { SendMail } from '../mail/index.js';
import { DomainError } from '../platform/commands/decider.js';
import { passwordResetMail, verificationMail } from './account-mails.js';
import type { RunAccountCommand } from './account-registration.js';
import type { LinkTokens } from './link-tokens.store.js';
import type { PasswordHasher } from './password-hasher.js';
import { accountOfState } from './account-registration.js';
import type { SessionStore } from './session.store.js';

export interface EmailOwnershipDeps {
  runAccountCommand: RunAccountCommand;
  sessions: SessionStore;
  links: LinkTokens;
  sendMail: SendMail;
  passwords: PasswordHasher;
  /** Sessions of an account ended here: every process checks its live sockets now (the authenticator). */
  sessionsEnded?: () => Promise<void>;
  clock: () => Date;
  /** Where the links point: the app's /verify-email and /reset-password pages. */
  publicUrl: string;
  verifyTtlSeconds: number;
  resetTtlSeconds: number;
  /** Links of one purpose one account may be mailed per hour (a mailbox is not to be flooded through us). */
  mailsPerHour?: number;
  onError: (error: unknown, what: string) => void;
}

const HOUR_MS = 3600_000;

/**
 * Proving that an account's holder reads the mail of its address: verification links after sign-up (and
 * on request), and password reset by e-mail. Mail goes out in the background — an answer never waits for
 * (or tells anything by) the mail server — and `settle()` waits for what is still being sent.
 */
export function createEmailOwnership(deps: EmailOwnershipDeps) {
  const mailsPerHour = deps.mailsPerHour ?? 3;
  const pending = new Set<Promise<void>>();

  function inBackground(what: string, work: () => Promise<void>) {
    // Started after the answer is on its way, so that none of it delays (or times) the answer.
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error) => deps.onError(error, what))
      .finally(() => pending.delete(running));
    pending.add(running);
  }

  /** Whether the account may be mailed another link of this purpose within the hour. */
  async function mayMail(accountId: string, purpose: 'verify-email' | 'reset-password') {
    return (
      (await deps.links.issuedSince(accountId, purpose, new Date(deps.clock().getTime() - HOUR_MS))) < mailsPerHour
    );
  }

  async function mailVerification(account: { id: string; email: string }) {
    const token = await deps.links.issue({
      purpose: 'verify-email',
      accountId: account.id,
      email: account.email,
      ttlSeconds: deps.verifyTtlSeconds,
      now: deps.clock(),
    });
    const link = `${deps.publicUrl}/verify-email?token=${token}`;
    await deps.sendMail(verificationMail(account.email, link, Math.round(deps.verifyTtlSeconds / 3600)));
  }

  return {
    /** After a password sign-up: the first verification link, sent in the background. */
    welcome(account: { id: string; email: string }) {
      inBackground('verification mail', () => mailVerification(account));
    },

    /** "Resend" from the notice: a new link unless the address is verified or the hour's mails are used up. */
    async resendVerification(account: {
      id: string;
      email: string;
      emailVerified: boolean;
    }): Promise<'sent' | 'already-verified' | 'throttled'> {
      if (account.emailVerified) return 'already-verified';
      if (!(await mayMail(account.id, 'verify-email'))) return 'throttled';
      inBackground('verification mail', () => mailVerification(account));
      return 'sent';
    },

    /**
     * "Forgot password?": the answer is the same whether the address has an account or not, and comes
     * after the same work (one lookup); the link is made and mailed afterwards, in the background.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const account = await deps.sessions.accountByEmail(email);
      if (!account) return;
      inBackground('password reset mail', async () => {
        if (!(await mayMail(account.id, 'reset-password'))) return;
        const token = await deps.links.issue({
          purpose: 'reset-password',
          accountId: account.id,
          email: account.email,
          ttlSeconds: deps.resetTtlSeconds,
          now: deps.clock(),
        });
        const link = `${deps.publicUrl}/reset-password?token=${token}`;
        await deps.sendMail(passwordResetMail(account.email, link, Math.round(deps.resetTtlSeconds / 60)));
      });
    },

    async verifyEmail(token: string, correlationId: string = randomUUID()): Promise<void> {
      const now = deps.clock();
      const link = await deps.links.spend(token, 'verify-email', now);
      if (!link) throw new DomainError('invalid', accountMessages.verifyLinkInvalid);
      await deps.runAccountCommand(
        link.email,
        { type: 'VerifyEmail', data: { accountId: link.accountId } },
        link.accountId,
        correlationId,
      );
      await deps.links.discard(link.accountId, 'verify-email', now);
    },

    /**
     * A new password from a reset link. Every session of the account ends (the reset moves its session
     * generation on), and so does every other reset link it was sent.
     */
    async resetPassword(token: string, password: string, correlationId: string = randomUUID()): Promise<void> {
      const now = deps.clock();
      const link = await deps.links.spend(token, 'reset-password', now);
      if (!link) throw new DomainError('invalid', accountMessages.resetLinkInvalid);
      const passwordHash = await deps.passwords.hash(password);
      const result = await deps.runAccountCommand(
        link.email,
        { type: 'ResetPassword', data: { accountId: link.accountId, passwordHash } },
        link.accountId,
        correlationId,
      );
      // The sessions end on every API process before this answers, whether or not the read model has the reset yet.
      const account = accountOfState(result.state);
      if (account) await deps.sessions.endSessionsBefore(account.id, account.sessionGeneration);
      await deps.sessionsEnded?.();
      await deps.links.discard(link.accountId, 'reset-password', now);
    },

    /** Waits for the mails still being sent (shutdown, tests). */
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
export type EmailOwnership = ReturnType<typeof createEmailOwnership>;
