import { StreamDeletedError, WrongExpectedVersionError, type EventStore } from '../event-store/event-store.port.js';

/**
 * Closes (tombstones) a stream that has not begun, so that a create still on its way to it fails instead
 * of landing — a plan slot held by nothing, an upload to an assistant being deleted. `started` when the
 * stream has an event, or gained its first one between the read and the tombstone (the log decides which
 * came first); `closed` when it is tombstoned, now or before.
 */
export async function closeIfUnstarted(eventStore: EventStore, streamId: string): Promise<'started' | 'closed'> {
  try {
    if ((await eventStore.readStream(streamId, { maxCount: 1 })).length > 0) return 'started';
    await eventStore.deleteStream(streamId, { expectedRevision: 'no_stream' });
    return 'closed';
  } catch (error) {
    if (error instanceof StreamDeletedError) return 'closed';
    if (error instanceof WrongExpectedVersionError) return 'started';
    throw error;
  }
}
