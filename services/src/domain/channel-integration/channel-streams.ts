import { streamIds, type ChannelKind } from '@kesher/contracts';

/** The channels' stream names, from the parts that make them unique. */
export const channelStreams = {
  integration: (assistantId: string, kind: ChannelKind) => streamIds.channelIntegration(`${kind}_${assistantId}`),
  inbound: (integrationId: string, deliveryKey: string) => streamIds.channelInbound(`${integrationId}.${deliveryKey}`),
  outbound: (messageId: string) => streamIds.channelOutbound(messageId),
  status: (integrationId: string, statusKey: string) => streamIds.channelStatus(`${integrationId}.${statusKey}`),
};
