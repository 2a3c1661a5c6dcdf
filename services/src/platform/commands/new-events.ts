import { randomUUID } from 'node:crypto';
import type { KesherEvent, NewEvent } from '@kesher/contracts';
import type { CommandContext } from './command-handler.js';

/**
 * What a decision produced, as the event store takes it: each event with its own id and the command's
 * context (correlation, actor, time). `causationId` is fixed by callers that may append the same decision
 * again after a conflict, so every attempt names the same cause.
 */
export function newEvents(
  events: readonly KesherEvent[],
  context: CommandContext,
  causationId = context.causationId ?? randomUUID(),
): NewEvent[] {
  return events.map((event) => ({
    type: event.type,
    data: event.data,
    metadata: {
      eventId: randomUUID(),
      correlationId: context.correlationId,
      causationId,
      actor: context.actor,
      timestamp: context.now.toISOString(),
      schemaVersion: 1,
    },
  }));
}
