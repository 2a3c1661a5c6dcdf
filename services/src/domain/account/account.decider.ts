import type { AccountRegistered } from '@kesher/contracts';
import { accountMessages, messages } from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * The stream of one e-mail address (account-registration.ts names it). It holds one account at a time:
 * an account that never proved the address can lose it to one that did, and the address then starts
 * a new account on the same stream.
 */
export type AccountState =
  | { status: 'none' }
  | {
      status: 'registered';
      accountId: string;
      email: string;
      provider: AccountRegistered['provider'];
      emailVerified: boolean;
      displayName: string | null;
      photoUrl: string | null;
      /** Password resets so far (a session token from an older generation is refused). */
      sessionGeneration: number;
    };

export type AccountCommand =
  | { type: 'RegisterAccount'; data: AccountRegistered }
  /** A verification link was followed (its token already checked and spent). */
  | { type: 'VerifyEmail'; data: { accountId: string } }
  /** A reset link was followed with a new password: reaching the mailbox also proves the address. */
  | { type: 'ResetPassword'; data: { accountId: string; passwordHash: string } }
  /**
   * A Google identity whose address Google verified signs in: it joins a verified account, or starts one;
   * an account that never proved the address loses it rather than being handed over (docs/identity.md).
   */
  | { type: 'SignInWithGoogle'; data: AccountRegistered }
  /** The owner deleted the account (DELETE /auth/me): the address is free to start a new one. */
  | { type: 'DeleteAccount'; data: { accountId: string } };

/** The events this aggregate's stream holds. */
const accountEventTypes = [
  'AccountRegistered',
  'AccountEmailVerified',
  'AccountPasswordReset',
  'AccountAddressReleased',
  'AccountDeleted',
] as const;
export type AccountEvent = EventOf<(typeof accountEventTypes)[number]>;

function current(state: AccountState, accountId: string, invalid: string) {
  // A link for an account that has since lost the address (or never held it) is refused like a bad link.
  if (state.status !== 'registered' || state.accountId !== accountId) throw new DomainError('invalid', invalid);
  return state;
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  eventTypes: accountEventTypes,
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'AccountRegistered':
        return {
          status: 'registered',
          accountId: event.data.accountId,
          email: event.data.email,
          provider: event.data.provider,
          // Google vouches for the address it signs in (the verifier insists on email_verified).
          emailVerified: event.data.provider === 'google',
          displayName: event.data.displayName,
          photoUrl: event.data.photoUrl ?? null,
          sessionGeneration: 0,
        };
      case 'AccountEmailVerified':
        return state.status === 'registered' && state.accountId === event.data.accountId
          ? { ...state, emailVerified: true }
          : state;
      case 'AccountPasswordReset':
        return state.status === 'registered' && state.accountId === event.data.accountId
          ? { ...state, emailVerified: true, sessionGeneration: state.sessionGeneration + 1 }
          : state;
      case 'AccountAddressReleased':
      case 'AccountDeleted':
        return state.status === 'registered' && state.accountId === event.data.accountId ? { status: 'none' } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterAccount':
        if (state.status === 'registered') throw new DomainError('conflict', messages.emailExists);
        return [{ type: 'AccountRegistered', data: { ...command.data, email: command.data.email.toLowerCase() } }];
      case 'VerifyEmail': {
        const account = current(state, command.data.accountId, accountMessages.verifyLinkInvalid);
        return account.emailVerified
          ? []
          : [{ type: 'AccountEmailVerified', data: { accountId: account.accountId, email: account.email } }];
      }
      case 'ResetPassword': {
        const account = current(state, command.data.accountId, accountMessages.resetLinkInvalid);
        return [
          {
            type: 'AccountPasswordReset',
            data: { accountId: account.accountId, passwordHash: command.data.passwordHash },
          },
          ...(account.emailVerified
            ? []
            : [
                { type: 'AccountEmailVerified' as const, data: { accountId: account.accountId, email: account.email } },
              ]),
        ];
      }
      case 'DeleteAccount': {
        // Deleting an account that is already gone records nothing (a retried request).
        if (state.status !== 'registered' || state.accountId !== command.data.accountId) return [];
        return [{ type: 'AccountDeleted', data: { accountId: state.accountId } }];
      }
      case 'SignInWithGoogle': {
        const registered: AccountEvent = {
          type: 'AccountRegistered',
          data: { ...command.data, email: command.data.email.toLowerCase() },
        };
        if (state.status === 'none') return [registered];
        // The address is proven: the Google identity signs into this account (nothing to record).
        if (state.emailVerified) return [];
        return [
          {
            type: 'AccountAddressReleased',
            data: { accountId: state.accountId, email: state.email, reason: 'claimed-by-verified-google' },
          },
          registered,
        ];
      }
    }
  },
};
