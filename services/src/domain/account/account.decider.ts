import type { AccountRegistered } from '@kesher/contracts';
import { messages } from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

export type AccountState = { status: 'none' } | { status: 'registered'; accountId: string; email: string };

export type AccountCommand = { type: 'RegisterAccount'; data: AccountRegistered };

/** The events this aggregate's stream holds. */
const accountEventTypes = ['AccountRegistered'] as const;
export type AccountEvent = EventOf<(typeof accountEventTypes)[number]>;

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  eventTypes: accountEventTypes,
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
