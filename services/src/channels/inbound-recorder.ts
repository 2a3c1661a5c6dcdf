import { createHash, randomUUID } from 'node:crypto';
import type { KesherEvent } from '@kesher/contracts';
import type { IntegrationRow } from '@kesher/projections/channels/channels.queries';
import { channelStreams } from '../domain/channel-integration/channel-streams.js';
import { factStream, handleCommand, type CommandContext } from '../platform/commands/command-handler.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { InboundMessage, InboundStatus } from './channel.port.js';

/** Delivery ids can be long (wamid…) or hold characters a stream name should not: they are hashed. */
const keyOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);

/**
 * Records a webhook delivery's messages and statuses, each on the stream its channel id names, before the
 * webhook is answered: one write each, no read (the stream must not exist yet). A redelivered update finds
 * its stream taken and records nothing, so it is never answered twice; the answer itself is the channels
 * worker's business, off the webhook's request.
 */
export function createInboundRecorder(deps: { eventStore: EventStore; clock: () => Date }) {
  return async function record(
    integration: IntegrationRow,
    delivery: { messages: readonly InboundMessage[]; statuses: readonly InboundStatus[] },
  ) {
    const context: CommandContext = {
      actor: { kind: 'system', id: `channel:${integration.kind}` },
      correlationId: randomUUID(),
      now: deps.clock(),
    };
    // One write, no read; a stream already there is a redelivery, recorded before (`existed`).
    const recordNew = async (streamId: string, event: KesherEvent) =>
      (await handleCommand(deps.eventStore, factStream, streamId, () => [event], context, { expected: 'no_stream' }))
        .appended !== undefined;
    const { integration_id: integrationId, kind } = integration;
    const outcomes = await Promise.all([
      ...delivery.messages.map((message) =>
        recordNew(channelStreams.inbound(integrationId, keyOf(message.deliveryKey)), {
          type: 'ChannelMessageReceived',
          data: {
            integrationId,
            assistantId: integration.assistant_id,
            ownerId: integration.owner_id,
            kind,
            chatId: message.chatId,
            senderName: message.senderName,
            externalMessageId: message.externalMessageId,
            text: message.text,
          },
        }),
      ),
      ...delivery.statuses.map((status) =>
        recordNew(channelStreams.status(integrationId, keyOf(`${status.externalMessageId}|${status.status}`)), {
          type: 'ChannelDeliveryStatusReported',
          data: {
            integrationId,
            kind,
            externalMessageId: status.externalMessageId,
            recipientId: status.recipientId,
            status: status.status,
            error: status.error,
            at: status.at.toISOString(),
          },
        }),
      ),
    ]);
    return { recorded: outcomes.filter(Boolean).length };
  };
}
export type InboundRecorder = ReturnType<typeof createInboundRecorder>;
