import { integrationMessages, type ChannelConnected, type ChannelKind } from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/** An assistant's connection to one channel: one stream per assistant and channel kind. */
export type ChannelIntegrationState =
  | { status: 'none' }
  | { status: 'connected'; integration: ChannelConnected }
  | { status: 'disconnected'; last: ChannelConnected };

export type ChannelIntegrationCommand =
  | { type: 'ConnectChannel'; data: ChannelConnected }
  | { type: 'DisconnectChannel'; data: { ownerId: string; kind: ChannelKind } };

const eventTypes = ['ChannelConnected', 'ChannelDisconnected'] as const;
export type ChannelIntegrationEvent = EventOf<(typeof eventTypes)[number]>;

export const channelIntegrationDecider: Decider<
  ChannelIntegrationState,
  ChannelIntegrationCommand,
  ChannelIntegrationEvent
> = {
  eventTypes,
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'ChannelConnected') return { status: 'connected', integration: event.data };
    if (state.status === 'connected' && state.integration.integrationId === event.data.integrationId)
      return { status: 'disconnected', last: state.integration };
    return state;
  },
  decide(command, state) {
    switch (command.type) {
      case 'ConnectChannel': {
        const next = command.data;
        if (state.status === 'connected' && state.integration.ownerId !== next.ownerId)
          throw new DomainError('not_found', integrationMessages.notConnected[next.account.kind]);
        // Connecting again replaces the old connection: its webhook stops being answered from then on.
        const replaced: ChannelIntegrationEvent[] =
          state.status === 'connected'
            ? [
                {
                  type: 'ChannelDisconnected',
                  data: {
                    integrationId: state.integration.integrationId,
                    assistantId: next.assistantId,
                    kind: next.account.kind,
                    reason: 'replaced',
                  },
                },
              ]
            : [];
        return [...replaced, { type: 'ChannelConnected', data: next }];
      }
      case 'DisconnectChannel': {
        if (state.status !== 'connected' || state.integration.ownerId !== command.data.ownerId)
          throw new DomainError('not_found', integrationMessages.notConnected[command.data.kind]);
        const { integrationId, assistantId } = state.integration;
        return [
          {
            type: 'ChannelDisconnected',
            data: { integrationId, assistantId, kind: command.data.kind, reason: 'owner' },
          },
        ];
      }
    }
  },
};
