import type { KesherEvent } from '@kesher/contracts';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from '../event-store/event-store.port.js';
import type { CommandContext } from './command-handler.js';
import { newEvents } from './new-events.js';

/**
 * Records facts on a stream that must not exist yet — a delivery named by the channel's own id, a reply
 * claimed before it is sent — in one write (expected revision `no_stream`), with no read first. Undefined
 * when the stream was already there: the fact was recorded before (a redelivery), nothing more is written.
 */
export async function appendNew(eventStore: EventStore, streamId: string, events: readonly KesherEvent[], context: CommandContext): Promise<AppendResult | undefined> {
  try {
    return await eventStore.appendToStream(streamId, newEvents(events, context), { expectedRevision: 'no_stream' });
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) return undefined;
    throw error;
  }
}
