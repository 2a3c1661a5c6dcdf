import { describe, expect, it } from 'vitest';
import type { AllPosition, RecordedEvent } from '@kesher/contracts';
import type { AllBatch, ReadAllOptions } from './event-store.port.js';
import { coalescedReadAll } from './coalesced-read.js';
import { seededRandom } from '../../testing/seeded-random.js';

const at = (n: number): AllPosition => ({ commit: 1n, prepare: BigInt(n) });
const event = (n: number, type: string, streamId = `thread-${n}`): RecordedEvent => ({
  streamId,
  streamPosition: 0n,
  position: at(n),
  type,
  data: {},
  metadata: { eventId: `e${n}` } as RecordedEvent['metadata'],
  createdAt: new Date(0),
});

/** A log of typed events behind a readAll that applies filters and limits as the SQL store does, and counts its calls. */
function log(events: RecordedEvent[], horizon = events.length) {
  const calls: ReadAllOptions[] = [];
  const readAll = async (options: ReadAllOptions): Promise<AllBatch> => {
    calls.push(options);
    const after = Number(options.after?.prepare ?? 0n);
    const limit = options.maxCount ?? 1000;
    const f = options.filter;
    const wanted = events.filter(
      (e) =>
        Number(e.position.prepare) > after &&
        (!f ||
          (!f.eventTypes && !f.categories) ||
          f.eventTypes?.includes(e.type) ||
          f.categories?.includes(e.streamId.split('-')[0]!)),
    );
    const page = wanted.slice(0, limit);
    const full = page.length >= limit;
    return { events: page, next: full ? page[page.length - 1]!.position : at(Math.max(after, horizon)), atEnd: !full };
  };
  return { readAll, calls };
}

describe('coalescedReadAll', () => {
  const events = [event(1, 'A'), event(2, 'B'), event(3, 'C', 'assistant-1'), event(4, 'A'), event(5, 'B')];

  it('reads once for readers asking from the same position in the same turn, each getting only its events', async () => {
    const { readAll, calls } = log(events);
    const read = coalescedReadAll(readAll);
    const [a, b, cat] = await Promise.all([
      read({ after: at(0), filter: { eventTypes: ['A'] } }),
      read({ after: at(0), filter: { eventTypes: ['B'] } }),
      read({ after: at(0), filter: { categories: ['assistant'] } }),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.filter).toEqual({ eventTypes: ['A', 'B'], categories: ['assistant'] });
    expect(a.events.map((e) => e.type)).toEqual(['A', 'A']);
    expect(b.events.map((e) => e.type)).toEqual(['B', 'B']);
    expect(cat.events.map((e) => e.streamId)).toEqual(['assistant-1']);
    for (const share of [a, b, cat]) expect(share).toMatchObject({ next: at(5), atEnd: true });
  });

  it('gives each reader what its own read would have given, page by page, when the shared page is full', async () => {
    const { readAll } = log(events);
    const read = coalescedReadAll(readAll);
    const alone = log(events);
    const options: ReadAllOptions[] = [
      { after: at(0), maxCount: 2, filter: { eventTypes: ['A'] } },
      { after: at(0), maxCount: 3 },
      { after: at(0), maxCount: 1, filter: { eventTypes: ['B'] } },
    ];
    const shared = await Promise.all(options.map((o) => read(o)));
    // Following each reader to the end yields exactly the events of its own reads.
    for (const [i, first] of shared.entries()) {
      const got = [...first.events];
      let batch = first;
      while (!batch.atEnd) {
        batch = await read({ ...options[i]!, after: batch.next });
        got.push(...batch.events);
      }
      const expected: RecordedEvent[] = [];
      let own = await alone.readAll(options[i]!);
      expected.push(...own.events);
      while (!own.atEnd) {
        own = await alone.readAll({ ...options[i]!, after: own.next });
        expected.push(...own.events);
      }
      expect(got.map((e) => e.position.prepare)).toEqual(expected.map((e) => e.position.prepare));
    }
  });

  it('joins reads from different positions into one from the earliest, each reader getting only what follows its own', async () => {
    const { readAll, calls } = log(events);
    const read = coalescedReadAll(readAll);
    const [a, b] = await Promise.all([
      read({ after: at(0), filter: { eventTypes: ['A'] } }),
      read({ after: at(2), filter: { eventTypes: ['B'] } }),
    ]);
    expect(calls).toEqual([{ after: at(0), maxCount: 1000, filter: { eventTypes: ['A', 'B'] } }]);
    expect(a.events.map((e) => e.position.prepare)).toEqual([1n, 4n]);
    expect(b.events.map((e) => e.position.prepare)).toEqual([5n]);
    expect(b).toMatchObject({ next: at(5), atEnd: true });
  });

  it('reads alone a reader whose position the shared page does not reach, and a lone reader as asked', async () => {
    const { readAll, calls } = log(events);
    const read = coalescedReadAll(readAll);
    const [behind, ahead] = await Promise.all([
      read({ after: at(0), maxCount: 2 }),
      read({ after: at(3), maxCount: 2, filter: { eventTypes: ['B'] } }),
    ]);
    expect(behind).toMatchObject({ next: at(2), atEnd: false });
    expect(ahead.events.map((e) => e.position.prepare)).toEqual([5n]);
    expect(calls.slice(1)).toEqual([{ after: at(3), maxCount: 2, filter: { eventTypes: ['B'] } }]);
    await read({ after: at(1), filter: { eventTypes: ['C'] } });
    expect(calls[2]).toEqual({ after: at(1), filter: { eventTypes: ['C'] } });
  });

  it('never moves a reader back when the page ends before its position', async () => {
    // The horizon the shared read saw is older than where this reader already stands.
    const { readAll } = log(events.slice(0, 3), 3);
    const read = coalescedReadAll(readAll);
    const [, ahead] = await Promise.all([read({ after: at(0) }), read({ after: at(4) })]);
    expect(ahead).toEqual({ events: [], next: at(4), atEnd: true });
  });

  it('follows every reader to the end with exactly its own events, whatever positions, filters and page sizes meet', async () => {
    const types = ['A', 'B', 'C', 'D'];
    const random = seededRandom(7);
    const many = Array.from({ length: 60 }, (_, i) =>
      event(i + 1, types[Math.floor(random() * types.length)]!, random() < 0.2 ? `assistant-${i}` : `thread-${i}`),
    );
    for (let round = 0; round < 40; round++) {
      const shared = log(many);
      const alone = log(many);
      const read = coalescedReadAll(shared.readAll);
      const readers: ReadAllOptions[] = Array.from({ length: 2 + Math.floor(random() * 5) }, () => {
        const filter =
          random() < 0.2
            ? undefined
            : random() < 0.3
              ? { categories: ['assistant'] }
              : { eventTypes: [types[Math.floor(random() * 4)]!] };
        return {
          after: at(Math.floor(random() * 60)),
          maxCount: 1 + Math.floor(random() * 20),
          ...(filter ? { filter } : {}),
        };
      });
      const got: bigint[][] = readers.map(() => []);
      let cursors: (ReadAllOptions | undefined)[] = readers.map((r) => r);
      while (cursors.some(Boolean)) {
        const batches = await Promise.all(cursors.map((c) => (c ? read(c) : undefined)));
        cursors = batches.map((batch, i) => {
          if (!batch) return undefined;
          got[i]!.push(...batch.events.map((e) => e.position.prepare));
          return batch.atEnd ? undefined : { ...readers[i]!, after: batch.next };
        });
      }
      for (const [i, options] of readers.entries()) {
        const expected: bigint[] = [];
        let own = await alone.readAll(options);
        expected.push(...own.events.map((e) => e.position.prepare));
        while (!own.atEnd) {
          own = await alone.readAll({ ...options, after: own.next });
          expected.push(...own.events.map((e) => e.position.prepare));
        }
        expect(got[i]).toEqual(expected);
      }
    }
  });

  it('passes a failed read to every reader that shared it', async () => {
    const read = coalescedReadAll(async () => {
      throw new Error('connection lost');
    });
    const results = await Promise.allSettled([
      read({ after: at(0) }),
      read({ after: at(0), filter: { eventTypes: ['A'] } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
