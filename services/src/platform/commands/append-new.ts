import type { KesherEvent } from '@kesher/contracts';
import type { AppendResult, EventStore } from '../event-store/event-store.port.js';
import { factStream, handleCommand, type CommandContext } from './command-handler.js';

/**
 * Records facts on a stream that must not exist yet, with no read; undefined when it was already there.
 * Kept for callers not yet on `handleCommand(…, { expected: 'no_stream' })`.
 */
export async function appendNew(eventStore: EventStore, streamId: string, events: readonly KesherEvent[], context: CommandContext): Promise<AppendResult | undefined> {
  return (await handleCommand(eventStore, factStream, streamId, () => events, context, { expected: 'no_stream' })).appended;
}
