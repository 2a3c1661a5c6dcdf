import type { AccountRegistered, KesherEvent } from '@kesher/contracts';
import { messages } from '@kesher/contracts';
import { DomainError, type Decider } from '../../platform/commands/decider.js';

export type AccountState = { status: 'none' } | { status: 'registered'; accountId: string; email: string };

export type AccountCommand = { type: 'RegisterAccount'; data: AccountRegistered };

export const accountDecider: Decider<AccountState, AccountCommand, KesherEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'AccountRegistered') return { status: 'registered', accountId: event.data.accountId, email: event.data.email };
    return state;
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterAccount':
        if (state.status === 'registered') throw new DomainError('conflict', messages.emailExists);
        return [{ type: 'AccountRegistered', data: { ...command.data, email: command.data.email.toLowerCase() } }];
    }
  },
};
