import { comparePositions, START_POSITION, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import type { AllBatch, ReadAllOptions } from './event-store.port.js';
import { createSharedTail } from './shared-tail.js';

/** A log read the way sql-event-store.ts reads its table: visible events after a position, filtered, with the horizon as `next`. */
function fakeLog() {
  const events: RecordedEvent[] = [];
  let reads = 0;
  const at = (n: number): AllPosition => ({ commit: BigInt(n), prepare: BigInt(n) });
  function append(type: string, streamId = `thread-${events.length % 3}`) {
    const n = events.length + 1;
    events.push({ streamId, streamPosition: 0n, position: at(n), type, data: { n }, metadata: {} as RecordedEvent['metadata'], createdAt: new Date(0) });
  }
  /** Reads see the log as it was when they began (a snapshot) and answer after `delay()`, so answers may cross. */
  let delay = () => 1;
  async function readPage(options: ReadAllOptions): Promise<AllBatch> {
    reads++;
    const snapshot = events.slice();
    await new Promise((resolve) => setTimeout(resolve, delay()));
    return pageOf(snapshot, options);
  }
  function pageOf(events: readonly RecordedEvent[], options: ReadAllOptions): AllBatch {
    const from = options.after ?? START_POSITION;
    const limit = options.maxCount ?? 1000;
    const filter = options.filter;
    const page = events.filter(
      (e) =>
        comparePositions(e.position, from) > 0 &&
        (!filter || filter.eventTypes?.includes(e.type) || filter.categories?.includes(e.streamId.split('-')[0]!)),
    );
    const taken = page.slice(0, limit);
    const full = taken.length >= limit;
    const horizon = events.at(-1)?.position ?? START_POSITION;
    return { events: taken, next: full ? taken.at(-1)!.position : comparePositions(horizon, from) > 0 ? horizon : from, atEnd: !full };
  }
  return {
    events,
    append,
    readPage,
    reads: () => reads,
    setDelay: (next: () => number) => (delay = next),
  };
}

describe('the shared tail of the log', () => {
  it('serves every live reader from one read per append, each with exactly what its own read would return', async () => {
    const log = fakeLog();
    const tail = createSharedTail({ readPage: log.readPage });
    const filters = [{ eventTypes: ['MessagePosted'] }, { eventTypes: ['RunCompleted', 'MessagePosted'] }, { categories: ['thread'] }, undefined];
    // Each reader reaches the end once on the table (this is how the tail learns where the end is).
    log.append('MessagePosted');
    let positions = await Promise.all(filters.map(async (filter) => (await tail.read({ after: START_POSITION, filter })).next));
    for (let round = 0; round < 20; round++) {
      log.append(round % 2 ? 'RunCompleted' : 'MessagePosted', round % 4 ? 'thread-1' : 'crawl-1');
      tail.noteCommit();
      const before = log.reads();
      const batches = await Promise.all(filters.map((filter, i) => tail.read({ after: positions[i], filter })));
      expect(log.reads() - before).toBe(1);
      for (const [i, filter] of filters.entries()) expect(batches[i]).toEqual(await log.readPage({ after: positions[i], filter }));
      positions = batches.map((batch) => batch.next);
    }
  });

  it('gives a reader that was woken by a later append a new read rather than one that began before it', async () => {
    const log = fakeLog();
    const tail = createSharedTail({ readPage: log.readPage });
    await tail.read({ after: START_POSITION });
    const start = (await tail.read({ after: START_POSITION })).next;
    log.append('A');
    tail.noteCommit();
    const early = tail.read({ after: start });
    log.append('B');
    tail.noteCommit();
    const late = tail.read({ after: start });
    expect((await early).events.map((e) => e.type)).toContain('A');
    expect((await late).events.map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('keeps a reader behind the stretch on the table, and stops at its page size', async () => {
    const log = fakeLog();
    const tail = createSharedTail({ readPage: log.readPage, capacity: 5 });
    for (let i = 0; i < 3; i++) log.append('A');
    const end = await tail.read({ after: START_POSITION });
    for (let i = 0; i < 12; i++) log.append('A');
    tail.noteCommit();
    const live = await tail.read({ after: end.next });
    expect(live.events).toHaveLength(12);
    // Only the newest 5 are kept: a reader at the old end is now behind the stretch and reads the table.
    const behind = await tail.read({ after: end.next, maxCount: 4 });
    expect(behind).toEqual(await log.readPage({ after: end.next, maxCount: 4 }));
    const served = await tail.read({ after: live.events[8]!.position, maxCount: 2 });
    expect(served.events.map((e) => (e.data as { n: number }).n)).toEqual([13, 14]);
    expect(served.atEnd).toBe(false);
  });

  it('lets the readers catch up on the table after a burst larger than one refresh', async () => {
    const log = fakeLog();
    const tail = createSharedTail({ readPage: log.readPage });
    const end = await tail.read({ after: START_POSITION });
    for (let i = 0; i < 1500; i++) log.append('A');
    tail.noteCommit();
    const first = await tail.read({ after: end.next, maxCount: 500 });
    expect(first).toEqual(await log.readPage({ after: end.next, maxCount: 500 }));
    expect(first.atEnd).toBe(false);
  });

  it('gives every reader the whole log in order however reads, refreshes, appends and trimming interleave', async () => {
    // A seeded generator, so a failure replays.
    let seed = Number(process.env.TAIL_SEED ?? 20261123);
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const log = fakeLog();
    log.setDelay(() => Math.floor(random() * 4));
    const tail = createSharedTail({ readPage: log.readPage, capacity: 7 });
    const types = ['A', 'B', 'C'];
    const readers = [{ eventTypes: ['A'] }, { eventTypes: ['B', 'C'] }, { categories: ['crawl'] }, undefined, { eventTypes: ['C'] }, undefined].map((filter) => ({
      filter,
      after: START_POSITION,
      seen: [] as number[],
    }));
    let appending = true;
    const writer = (async () => {
      for (let i = 0; i < 300; i++) {
        log.append(types[Math.floor(random() * 3)]!, random() < 0.3 ? 'crawl-1' : 'thread-1');
        tail.noteCommit();
        if (random() < 0.5) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
      }
      appending = false;
    })();
    await Promise.all([
      writer,
      ...readers.map(async (reader) => {
        for (let idle = 0; idle < 3; ) {
          const batch = await tail.read({ after: reader.after, filter: reader.filter, maxCount: 1 + Math.floor(random() * 5) });
          reader.seen.push(...batch.events.map((e) => (e.data as { n: number }).n));
          reader.after = batch.next;
          if (!appending && batch.atEnd && batch.events.length === 0) idle++;
          if (batch.atEnd) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
        }
      }),
    ]);
    for (const reader of readers) {
      const expected = (await log.readPage({ after: START_POSITION, filter: reader.filter, maxCount: 10_000 })).events.map((e) => (e.data as { n: number }).n);
      expect(reader.seen).toEqual(expected);
    }
  });
});
