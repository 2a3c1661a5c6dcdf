import {
  categoryOf,
  EventMetadataSchema,
  positionFromString,
  positionToString,
  type RecordedEvent,
} from '@kesher/contracts';
import { z } from 'zod';
import { EVENT_TYPE_HEADER } from './event-types.js';
import type { DeliveredMessage, OutgoingMessage } from './message-bus.port.js';

/** Topic per stream category: `assistant-…` streams go to `kesher.assistant`. */
export const topicFor = (streamId: string) => `kesher.${categoryOf(streamId)}`;

/**
 * The JSON a relayed event travels as. The event id rides along so consumers can drop duplicates; the
 * event type rides in a header too, so consumers that declare their event types skip the rest unread.
 */
const RelayedEventSchema = z.object({
  eventId: z.string(),
  streamId: z.string(),
  streamPosition: z.string(),
  position: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: EventMetadataSchema,
  createdAt: z.string(),
});

export function toMessage(event: RecordedEvent): OutgoingMessage {
  return {
    key: event.streamId,
    value: JSON.stringify({
      eventId: event.metadata.eventId,
      streamId: event.streamId,
      streamPosition: event.streamPosition.toString(),
      position: positionToString(event.position),
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      createdAt: event.createdAt.toISOString(),
    }),
    headers: { 'event-id': event.metadata.eventId, [EVENT_TYPE_HEADER]: event.type },
  };
}

export function fromMessage(message: Pick<DeliveredMessage, 'value'>): RecordedEvent {
  const parsed = RelayedEventSchema.parse(JSON.parse(message.value));
  return {
    streamId: parsed.streamId,
    streamPosition: BigInt(parsed.streamPosition),
    position: positionFromString(parsed.position),
    type: parsed.type,
    data: parsed.data,
    metadata: parsed.metadata,
    createdAt: new Date(parsed.createdAt),
  };
}
