import type { RecordedEvent } from '@kesher/contracts';
import { StreamDeletedError, type EventStore } from './event-store.port.js';

export interface RememberedStreamsOptions {
  /** Events kept in all, across streams (default 20,000); the streams read least recently go first. */
  maxEvents?: number;
}

/**
 * Keeps the events of the streams read lately, so the next read of a stream asks the log only for what
 * was appended since. A conversation's stream is read whole on every turn, on the API and in the worker:
 * at its 400th question a turn read ~1,600 events twice, and parsing those rows was most of what the
 * turn's time had grown by.
 *
 * It sits under the privacy codec and the schemas (compose-platform.ts), so what it keeps is the log as
 * stored, personal fields sealed: an erased subject's fields stay unreadable, because opening them needs
 * the key, which is gone. A stream's past never changes (the log is append-only and a deleted stream takes
 * no more events), so a kept prefix is never stale: every read still asks the log for the events after
 * it, on any process, and a deleted stream is forgotten when the log says so. Only whole-stream reads are
 * served this way; a read from a revision or of a few events goes to the log as it is.
 */
export function withRememberedStreams(inner: EventStore, options: RememberedStreamsOptions = {}): EventStore {
  const maxEvents = options.maxEvents ?? 20_000;
  // A Map keeps insertion order: re-inserting a stream on each read makes the first key the least recent.
  const kept = new Map<string, readonly RecordedEvent[]>();
  let keptEvents = 0;

  function forget(streamId: string) {
    const events = kept.get(streamId);
    if (!events) return;
    kept.delete(streamId);
    keptEvents -= events.length;
  }

  function keep(streamId: string, events: readonly RecordedEvent[]) {
    // Two reads of one stream at once: the longer one stays.
    const known = kept.get(streamId);
    if (known && known.length > events.length) return;
    forget(streamId);
    // A stream bigger than half of the room would push out everything else for one reader.
    if (events.length === 0 || events.length > maxEvents / 2) return;
    kept.set(streamId, events);
    keptEvents += events.length;
    for (const [oldest] of kept) {
      if (keptEvents <= maxEvents) break;
      forget(oldest);
    }
  }

  return {
    name: inner.name,
    appendToStream: (streamId, events, appendOptions) => inner.appendToStream(streamId, events, appendOptions),
    readAll: (readOptions) => inner.readAll(readOptions),
    subscribeToAll: (subscribeOptions) => inner.subscribeToAll(subscribeOptions),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
    async deleteStream(streamId, deleteOptions) {
      forget(streamId);
      await inner.deleteStream(streamId, deleteOptions);
    },
    async readStream(streamId, readOptions) {
      if (readOptions?.fromRevision !== undefined || readOptions?.maxCount !== undefined)
        return inner.readStream(streamId, readOptions);
      const known = kept.get(streamId);
      let events: readonly RecordedEvent[];
      try {
        if (known) {
          const tail = await inner.readStream(streamId, { fromRevision: known.at(-1)!.streamPosition + 1n });
          events = tail.length === 0 ? known : known.concat(tail);
        } else events = await inner.readStream(streamId);
      } catch (error) {
        if (error instanceof StreamDeletedError) forget(streamId);
        throw error;
      }
      keep(streamId, events);
      // The caller's own array: what is kept is never handed out to be sorted or spliced.
      return events.slice();
    },
  };
}
