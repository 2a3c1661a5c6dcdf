import { messages } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { accountDecider, type AccountEvent } from './account.decider.js';

const spec = deciderSpec(accountDecider);
const data = { accountId: 'acc-1', email: 'Dana@Example.com', displayName: 'Dana', passwordHash: 'hash', provider: 'password' as const, photoUrl: null };

describe('account decider', () => {
  it('registers an account with a normalised e-mail', () => {
    spec.given([]).when({ type: 'RegisterAccount', data }).then([{ type: 'AccountRegistered', data: { ...data, email: 'dana@example.com' } }]);
  });
  it('refuses a second registration of the same account', () => {
    const registered: AccountEvent = { type: 'AccountRegistered', data: { ...data, email: 'dana@example.com' } };
    spec.given([registered]).when({ type: 'RegisterAccount', data }).thenThrows(DomainError, messages.emailExists);
  });
});
