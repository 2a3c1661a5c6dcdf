import { describe, expect, it } from 'vitest';
import { onEverySqlBackend, type OpenSql } from '../../testing/sql-backends.js';
import type { Sql } from '../sql/sql.port.js';
import { StreamDeletedError, type EventStore } from './event-store.port.js';
import { withRememberedStreams } from './remembered-streams.event-store.js';
import { createSqlEventStore } from './sql-event-store.js';
import { noted, testEvent } from './testing/test-event.js';
import { seededRandom } from '../../testing/seeded-random.js';

/** The inner store, with every readStream's options written down. */
function spied(inner: EventStore) {
  const reads: { streamId: string; fromRevision?: bigint; maxCount?: number }[] = [];
  const store: EventStore = {
    ...inner,
    name: inner.name,
    appendToStream: (...args) => inner.appendToStream(...args),
    deleteStream: (...args) => inner.deleteStream(...args),
    readAll: (...args) => inner.readAll(...args),
    subscribeToAll: (...args) => inner.subscribeToAll(...args),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
    readStream: (streamId, options) => {
      reads.push({ streamId, ...options });
      return inner.readStream(streamId, options);
    },
  };
  return { store, reads };
}

const summary = (events: { streamPosition: bigint; type: string; data: unknown }[]) =>
  events.map((event) => `${event.streamPosition}:${event.type}:${JSON.stringify(event.data)}`);

/** A store on a fresh database for `body`, closed after it. */
async function onLog(open: OpenSql, body: (log: EventStore, sql: Sql) => Promise<void>) {
  const { sql, close } = await open();
  const log = await createSqlEventStore({ sql });
  try {
    await body(log, sql);
  } finally {
    await log.close();
    await close();
  }
}

/** The reads the log was asked for, as `stream` or `stream from revision`. */
const asked = (reads: { streamId: string; fromRevision?: bigint }[]) =>
  reads.map((r) => `${r.streamId}${r.fromRevision === undefined ? '' : ` from ${r.fromRevision}`}`);

await onEverySqlBackend('remembered streams', (backend, open) => {
  describe(`remembered streams (${backend})`, () => {
    it('reads what the log holds, whoever appended, after any mix of appends and reads', () =>
      onLog(open, async (log, sql) => {
        // Another process's store on the same database appends too: its events are not announced to this one.
        const other = await createSqlEventStore({ sql });
        const remembered = withRememberedStreams(log, { maxEvents: 40 });
        const next = seededRandom(7);
        const streams = ['s-a', 's-b', 's-c', 's-d'];
        let n = 0;
        for (let step = 0; step < 120; step++) {
          const streamId = streams[Math.floor(next() * streams.length)]!;
          if (next() < 0.5) {
            const writer = next() < 0.5 ? log : other;
            const count = 1 + Math.floor(next() * 3);
            await writer.appendToStream(
              streamId,
              Array.from({ length: count }, () => noted(n++)),
              { expectedRevision: 'any' },
            );
          } else {
            expect(summary(await remembered.readStream(streamId)), `step ${step}`).toEqual(
              summary(await log.readStream(streamId)),
            );
          }
        }
        await other.close();
      }));

    it('asks the log only for the events after those it keeps, and forgets a stream the log says is deleted', () =>
      onLog(open, async (log) => {
        const { store, reads } = spied(log);
        const remembered = withRememberedStreams(store);
        await log.appendToStream('talk', [noted(1), noted(2), noted(3)], { expectedRevision: 'no_stream' });
        expect(await remembered.readStream('talk')).toHaveLength(3);
        await log.appendToStream('talk', [noted(4)], { expectedRevision: 2n });
        const read = await remembered.readStream('talk');
        expect(read.map((event) => (event.data as { n: number }).n)).toEqual([1, 2, 3, 4]);
        // The caller's array is its own: changing it changes nothing kept.
        read.reverse();
        expect(summary(await remembered.readStream('talk'))).toEqual(summary(await log.readStream('talk')));
        expect(reads.map((r) => r.fromRevision)).toEqual([undefined, 3n, 4n]);

        // Deleted by another process: the log says so, and the stream is not kept any more.
        await log.deleteStream('talk', { expectedRevision: 'any' });
        await expect(remembered.readStream('talk')).rejects.toBeInstanceOf(StreamDeletedError);
        reads.length = 0;
        await expect(remembered.readStream('talk')).rejects.toBeInstanceOf(StreamDeletedError);
        expect(reads.map((r) => r.fromRevision)).toEqual([undefined]);

        // Reads from a revision, or of a few events, go to the log as asked.
        await log.appendToStream('other', [noted(5), noted(6)], { expectedRevision: 'no_stream' });
        reads.length = 0;
        expect(await remembered.readStream('other', { maxCount: 1 })).toHaveLength(1);
        expect(await remembered.readStream('other', { fromRevision: 1n })).toHaveLength(1);
        expect(reads).toEqual([
          { streamId: 'other', maxCount: 1 },
          { streamId: 'other', fromRevision: 1n },
        ]);
      }));

    it('keeps at most its number of events, the streams read least lately going first', () =>
      onLog(open, async (log) => {
        const { store, reads } = spied(log);
        const remembered = withRememberedStreams(store, { maxEvents: 10 });
        for (const streamId of ['one', 'two', 'three'])
          await log.appendToStream(streamId, [noted(1), noted(2), noted(3), noted(4)], {
            expectedRevision: 'no_stream',
          });
        await log.appendToStream('big', [noted(1), noted(2), noted(3), noted(4), noted(5), noted(6)], {
          expectedRevision: 'no_stream',
        });
        for (const streamId of ['one', 'two', 'three', 'two', 'one', 'big', 'big'])
          await remembered.readStream(streamId);
        expect(asked(reads)).toEqual([
          'one',
          'two',
          // 'three' pushes out 'one', the least lately read: 'two' is still kept, 'one' is read whole.
          'three',
          'two from 4',
          'one',
          // Bigger than half the room: read whole each time rather than pushing the others out.
          'big',
          'big',
        ]);
      }));

    it('keeps at most its weight in bytes: long messages push out the streams read least lately', () =>
      onLog(open, async (log) => {
        const { store, reads } = spied(log);
        // About 2,200 bytes an event of a 2,000-character text: room for four of them.
        const remembered = withRememberedStreams(store, { maxBytes: 9_000 });
        const long = (n: number) => testEvent('Said', { n, text: 'ש'.repeat(2_000) });
        await log.appendToStream('short', [noted(1)], { expectedRevision: 'no_stream' });
        await log.appendToStream('long-a', [long(1), long(2)], { expectedRevision: 'no_stream' });
        await log.appendToStream('long-b', [long(3), long(4)], { expectedRevision: 'no_stream' });
        await log.appendToStream('longest', [long(5), long(6), long(7)], { expectedRevision: 'no_stream' });
        for (const streamId of ['short', 'long-a', 'short', 'long-b', 'short', 'long-a', 'longest', 'longest'])
          await remembered.readStream(streamId);
        expect(asked(reads)).toEqual([
          'short',
          'long-a',
          'short from 1',
          // long-b makes it 200 + 4 × 2,200 bytes: long-a, read least lately, goes.
          'long-b',
          'short from 1',
          'long-a',
          // More than half the room: read whole each time.
          'longest',
          'longest',
        ]);
      }));
  });
});
