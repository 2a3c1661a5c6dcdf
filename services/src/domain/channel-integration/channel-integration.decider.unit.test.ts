import type { ChannelConnected } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { channelOutboundDecider } from './channel-delivery.decider.js';
import { channelIntegrationDecider } from './channel-integration.decider.js';

const connected = (integrationId: string, ownerId = 'o1'): ChannelConnected => ({
  integrationId,
  assistantId: 'a1',
  ownerId,
  account: { kind: 'telegram', botId: 1, botUsername: 'bot' },
  sealedSecrets: 'v1.x.y.z',
  tokenLast4: 'abcd',
});

describe('channel integration decider', () => {
  const spec = deciderSpec(channelIntegrationDecider);
  it('connects, and a second connection replaces the first', () => {
    spec
      .given([])
      .when({ type: 'ConnectChannel', data: connected('i1') })
      .then([{ type: 'ChannelConnected', data: connected('i1') }]);
    spec
      .given([{ type: 'ChannelConnected', data: connected('i1') }])
      .when({ type: 'ConnectChannel', data: connected('i2') })
      .then([
        {
          type: 'ChannelDisconnected',
          data: { integrationId: 'i1', assistantId: 'a1', kind: 'telegram', reason: 'replaced' },
        },
        { type: 'ChannelConnected', data: connected('i2') },
      ]);
  });

  it("given another owner's connection on the assistant, when an owner connects over it, then it is answered as if there were none", () => {
    spec
      .given([{ type: 'ChannelConnected', data: connected('i1', 'o1') }])
      .when({ type: 'ConnectChannel', data: connected('i2', 'o2') })
      .thenThrows(DomainError, 'Telegram integration not found');
  });

  it('disconnects only what is connected, and only for its owner', () => {
    spec
      .given([{ type: 'ChannelConnected', data: connected('i1') }])
      .when({ type: 'DisconnectChannel', data: { ownerId: 'o1', kind: 'telegram' } })
      .then([
        {
          type: 'ChannelDisconnected',
          data: { integrationId: 'i1', assistantId: 'a1', kind: 'telegram', reason: 'owner' },
        },
      ]);
    spec
      .given([])
      .when({ type: 'DisconnectChannel', data: { ownerId: 'o1', kind: 'telegram' } })
      .thenThrows(DomainError, 'Telegram integration not found');
    spec
      .given([{ type: 'ChannelConnected', data: connected('i1') }])
      .when({ type: 'DisconnectChannel', data: { ownerId: 'o2', kind: 'telegram' } })
      .thenThrows(DomainError);
    spec
      .given([
        { type: 'ChannelConnected', data: connected('i1') },
        {
          type: 'ChannelDisconnected',
          data: { integrationId: 'i1', assistantId: 'a1', kind: 'telegram', reason: 'owner' },
        },
      ])
      .when({ type: 'DisconnectChannel', data: { ownerId: 'o1', kind: 'telegram' } })
      .thenThrows(DomainError);
  });
});

describe('channel outbound decider', () => {
  const spec = deciderSpec(channelOutboundDecider);
  const dispatched = {
    messageId: 'm1',
    threadId: 't1',
    integrationId: 'i1',
    kind: 'telegram' as const,
    chatId: '5',
    parts: 1,
    author: 'assistant' as const,
  };
  it('claims a message once: a second claim decides nothing, so it is never sent twice', () => {
    spec
      .given([])
      .when({ type: 'DispatchReply', data: dispatched })
      .then([{ type: 'ChannelReplyDispatched', data: dispatched }]);
    spec
      .given([{ type: 'ChannelReplyDispatched', data: dispatched }])
      .when({ type: 'DispatchReply', data: dispatched })
      .then([]);
  });
  it('settles once', () => {
    const delivered = { messageId: 'm1', integrationId: 'i1', externalMessageIds: ['9'], sendMs: 12 };
    spec
      .given([{ type: 'ChannelReplyDispatched', data: dispatched }])
      .when({ type: 'ConfirmReply', data: delivered })
      .then([{ type: 'ChannelReplyDelivered', data: delivered }]);
    spec
      .given([
        { type: 'ChannelReplyDispatched', data: dispatched },
        { type: 'ChannelReplyDelivered', data: delivered },
      ])
      .when({ type: 'FailReply', data: { messageId: 'm1', integrationId: 'i1', error: 'late' } })
      .then([]);
    // A confirmation delivered again, or for a reply never claimed, records nothing.
    spec
      .given([
        { type: 'ChannelReplyDispatched', data: dispatched },
        { type: 'ChannelReplyDelivered', data: delivered },
      ])
      .when({ type: 'ConfirmReply', data: delivered })
      .then([]);
    spec.given([]).when({ type: 'ConfirmReply', data: delivered }).then([]);
  });
});
