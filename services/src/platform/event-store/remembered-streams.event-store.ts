import type { RecordedEvent } from '@kesher/contracts';
import { StreamDeletedError, type EventStore } from './event-store.port.js';

export interface RememberedStreamsOptions {
  /** Events kept in all, across streams (default 20,000); the streams read least recently go first. */
  maxEvents?: number;
  /**
   * About how many bytes of events are kept in all (default 16 MiB), counted as their data's JSON: a
   * message may be 10,000 characters, sealed about 27 KB, and a visitor who writes long ones in many
   * conversations must not make a process hold 20,000 of them.
   */
  maxBytes?: number;
}

interface Kept {
  events: readonly RecordedEvent[];
  bytes: number;
}

/** An event's weight against `maxBytes`: its data as JSON, and a little for the rest of it. */
const bytesOf = (events: readonly RecordedEvent[]) =>
  events.reduce((sum, event) => sum + 200 + (JSON.stringify(event.data)?.length ?? 0), 0);

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
  const maxBytes = options.maxBytes ?? 16 * 2 ** 20;
  // A Map keeps insertion order: re-inserting a stream on each read makes the first key the least recent.
  const kept = new Map<string, Kept>();
  let keptEvents = 0;
  let keptBytes = 0;

  function forget(streamId: string) {
    const known = kept.get(streamId);
    if (!known) return;
    kept.delete(streamId);
    keptEvents -= known.events.length;
    keptBytes -= known.bytes;
  }

  /** Keeps `events`; those of `prefix` (kept already) are not weighed again. */
  function keep(streamId: string, events: readonly RecordedEvent[], prefix: Kept | undefined) {
    // Two reads of one stream at once: the longer one stays.
    const current = kept.get(streamId);
    if (current && current.events.length > events.length) return;
    forget(streamId);
    // A stream bigger than half of the room would push out everything else for one reader. The count is
    // checked before the weight: a crawled site's assistant stream (10,000 events, read whole at every page
    // it takes) is not turned into JSON only to be left out.
    if (events.length === 0 || events.length > maxEvents / 2) return;
    const bytes =
      prefix && prefix.events.length <= events.length
        ? prefix.bytes + bytesOf(events.slice(prefix.events.length))
        : bytesOf(events);
    if (bytes > maxBytes / 2) return;
    kept.set(streamId, { events, bytes });
    keptEvents += events.length;
    keptBytes += bytes;
    for (const [oldest] of kept) {
      if (keptEvents <= maxEvents && keptBytes <= maxBytes) break;
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
          const tail = await inner.readStream(streamId, {
            fromRevision: known.events.at(-1)!.streamPosition + 1n,
          });
          events = tail.length === 0 ? known.events : known.events.concat(tail);
        } else events = await inner.readStream(streamId);
      } catch (error) {
        if (error instanceof StreamDeletedError) forget(streamId);
        throw error;
      }
      keep(streamId, events, known);
      // The caller's own array: what is kept is never handed out to be sorted or spliced.
      return events.slice();
    },
  };
}
