import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { ChannelKind } from '@kesher/contracts';
import type { IntegrationRow } from '@kesher/projections/channels/channels.queries';
import { channelStreams } from '../domain/channel-integration/channel-streams.js';
import { channelInboundDecider } from '../domain/channel-integration/channel-delivery.decider.js';
import type { CommandHandler } from '../platform/commands/command-handler.js';
import type { InboundMessage, InboundStatus } from './channel.port.js';

/** Delivery ids can be long (wamid…) or hold characters a stream name should not: they are hashed. */
const keyOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);

/**
 * Records a webhook delivery's messages and statuses, each on the stream its channel id names, before the
 * webhook is answered. A redelivered update finds its stream taken and records nothing, so it is never
 * answered twice; the answer itself is the channels worker's business, off the webhook's request.
 */
export function createInboundRecorder(deps: { handle: CommandHandler; clock: () => Date }) {
  return async function record(integration: IntegrationRow, delivery: { messages: readonly InboundMessage[]; statuses: readonly InboundStatus[] }) {
    const context = { actor: { kind: 'system' as const, id: `channel:${integration.kind}` }, correlationId: randomUUID(), now: deps.clock() };
    let recorded = 0;
    const kind: ChannelKind = integration.kind;
    await Promise.all([
      ...delivery.messages.map(async (message) => {
        const { events } = await deps.handle(
          channelInboundDecider,
          channelStreams.inbound(integration.integration_id, keyOf(message.deliveryKey)),
          {
            type: 'RecordMessage',
            data: {
              integrationId: integration.integration_id,
              assistantId: integration.assistant_id,
              ownerId: integration.owner_id,
              kind,
              chatId: message.chatId,
              senderName: message.senderName,
              externalMessageId: message.externalMessageId,
              text: message.text,
            },
          },
          context,
        );
        recorded += events.length;
      }),
      ...delivery.statuses.map(async (status) => {
        const { events } = await deps.handle(
          channelInboundDecider,
          channelStreams.status(integration.integration_id, keyOf(`${status.externalMessageId}|${status.status}`)),
          {
            type: 'RecordStatus',
            data: {
              integrationId: integration.integration_id,
              kind,
              externalMessageId: status.externalMessageId,
              recipientId: status.recipientId,
              status: status.status,
              error: status.error,
              at: status.at.toISOString(),
            },
          },
          context,
        );
        recorded += events.length;
      }),
    ]);
    return { recorded };
  };
}
export type InboundRecorder = ReturnType<typeof createInboundRecorder>;
