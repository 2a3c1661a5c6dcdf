import { accountMessages, messages } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { accountDecider, type AccountEvent } from './account.decider.js';

const spec = deciderSpec(accountDecider);
const data = {
  accountId: 'acc-1',
  email: 'Dana@Example.com',
  displayName: 'Dana',
  passwordHash: 'hash',
  provider: 'password' as const,
  photoUrl: null,
};
const registered: AccountEvent = { type: 'AccountRegistered', data: { ...data, email: 'dana@example.com' } };
const verified: AccountEvent = {
  type: 'AccountEmailVerified',
  data: { accountId: 'acc-1', email: 'dana@example.com' },
};
const google = {
  accountId: 'acc-2',
  email: 'dana@example.com',
  displayName: 'Dana G',
  passwordHash: null,
  provider: 'google' as const,
  photoUrl: null,
};

describe('account decider', () => {
  it('registers an account with a normalised e-mail', () => {
    spec
      .given([])
      .when({ type: 'RegisterAccount', data })
      .then([{ type: 'AccountRegistered', data: { ...data, email: 'dana@example.com' } }]);
  });
  it('refuses a second registration of the same account', () => {
    spec.given([registered]).when({ type: 'RegisterAccount', data }).thenThrows(DomainError, messages.emailExists);
  });

  describe('e-mail verification', () => {
    it('records the verification once', () => {
      spec
        .given([registered])
        .when({ type: 'VerifyEmail', data: { accountId: 'acc-1' } })
        .then([verified]);
      spec
        .given([registered, verified])
        .when({ type: 'VerifyEmail', data: { accountId: 'acc-1' } })
        .then([]);
    });
    it('refuses a link of an account that no longer holds the address', () => {
      const released: AccountEvent = {
        type: 'AccountAddressReleased',
        data: { accountId: 'acc-1', email: 'dana@example.com', reason: 'claimed-by-verified-google' },
      };
      spec
        .given([registered, released])
        .when({ type: 'VerifyEmail', data: { accountId: 'acc-1' } })
        .thenThrows(DomainError, accountMessages.verifyLinkInvalid);
    });
  });

  describe('password reset', () => {
    it('sets the new password and, since the link reached the mailbox, verifies the address', () => {
      spec
        .given([registered])
        .when({ type: 'ResetPassword', data: { accountId: 'acc-1', passwordHash: 'new' } })
        .then([{ type: 'AccountPasswordReset', data: { accountId: 'acc-1', passwordHash: 'new' } }, verified]);
      spec
        .given([registered, verified])
        .when({ type: 'ResetPassword', data: { accountId: 'acc-1', passwordHash: 'new' } })
        .then([{ type: 'AccountPasswordReset', data: { accountId: 'acc-1', passwordHash: 'new' } }]);
    });
    it('refuses a link of another account', () => {
      spec
        .given([registered])
        .when({ type: 'ResetPassword', data: { accountId: 'acc-9', passwordHash: 'new' } })
        .thenThrows(DomainError, accountMessages.resetLinkInvalid);
    });
  });

  describe('Google sign-in', () => {
    it('starts an account on a free address', () => {
      spec
        .given([])
        .when({ type: 'SignInWithGoogle', data: google })
        .then([{ type: 'AccountRegistered', data: google }]);
    });
    it('joins a verified account without recording anything', () => {
      spec.given([registered, verified]).when({ type: 'SignInWithGoogle', data: google }).then([]);
      spec
        .given([{ type: 'AccountRegistered', data: { ...google, accountId: 'acc-0' } }])
        .when({ type: 'SignInWithGoogle', data: google })
        .then([]);
    });
    it('never merges into an unverified account: that account loses the address and the Google identity starts anew', () => {
      spec
        .given([registered])
        .when({ type: 'SignInWithGoogle', data: google })
        .then([
          {
            type: 'AccountAddressReleased',
            data: { accountId: 'acc-1', email: 'dana@example.com', reason: 'claimed-by-verified-google' },
          },
          { type: 'AccountRegistered', data: google },
        ]);
    });
  });

  describe('deleting the account', () => {
    const deleted: AccountEvent = { type: 'AccountDeleted', data: { accountId: 'acc-1' } };
    it('given a registered account, when it is deleted, then the deletion is recorded and the address is free again', () => {
      spec
        .given([registered])
        .when({ type: 'DeleteAccount', data: { accountId: 'acc-1' } })
        .then([deleted]);
      spec
        .given([registered, deleted])
        .when({ type: 'RegisterAccount', data: { ...data, accountId: 'acc-3' } })
        .then([{ type: 'AccountRegistered', data: { ...data, accountId: 'acc-3', email: 'dana@example.com' } }]);
    });
    it('given an account already deleted, or another account on the address, when it is deleted, then nothing is recorded', () => {
      spec
        .given([registered, deleted])
        .when({ type: 'DeleteAccount', data: { accountId: 'acc-1' } })
        .then([]);
      spec
        .given([registered])
        .when({ type: 'DeleteAccount', data: { accountId: 'acc-9' } })
        .then([]);
    });
  });
});
