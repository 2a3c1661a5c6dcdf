import type { ChannelReplyDispatched } from '@kesher/contracts';
import type { Decider, EventOf } from '../../platform/commands/decider.js';

/**
 * One assistant message going out to a channel: claimed (dispatched) before it is sent, then delivered or
 * failed. A second claim decides nothing — the message is never sent twice, whoever sees it again.
 */
export type OutboundState = { phase: 'none' | 'dispatched' | 'settled' };
type OutboundEvent = EventOf<'ChannelReplyDispatched' | 'ChannelReplyDelivered' | 'ChannelReplyFailed'>;
export type OutboundCommand =
  | { type: 'DispatchReply'; data: ChannelReplyDispatched }
  | {
      type: 'ConfirmReply';
      data: { messageId: string; integrationId: string; externalMessageIds: string[]; sendMs: number };
    }
  | { type: 'FailReply'; data: { messageId: string; integrationId: string; error: string } };

export const channelOutboundDecider: Decider<OutboundState, OutboundCommand, OutboundEvent> = {
  eventTypes: ['ChannelReplyDispatched', 'ChannelReplyDelivered', 'ChannelReplyFailed'],
  initialState: () => ({ phase: 'none' }),
  evolve: (_state, event) => ({ phase: event.type === 'ChannelReplyDispatched' ? 'dispatched' : 'settled' }),
  decide(command, state) {
    switch (command.type) {
      case 'DispatchReply':
        return state.phase === 'none' ? [{ type: 'ChannelReplyDispatched', data: command.data }] : [];
      case 'ConfirmReply':
        return state.phase === 'dispatched' ? [{ type: 'ChannelReplyDelivered', data: command.data }] : [];
      case 'FailReply':
        return state.phase === 'dispatched'
          ? [{ type: 'ChannelReplyFailed', data: { ...command.data, error: command.data.error.slice(0, 1000) } }]
          : [];
    }
  },
};
