import { randomUUID } from 'node:crypto';
import { comparePositions, type NewEvent, type RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StreamDeletedError,
  WrongExpectedVersionError,
  type AllBatch,
  type AllFilter,
  type EventStore,
} from '../event-store.port.js';

/**
 * The behaviour every EventStore adapter must show. The suite only uses streams and event types unique
 * to this run, so it can run against a shared server (EventStoreDB) as well as a fresh database.
 */
export function eventStoreContract(
  adapterName: string,
  setup: () => Promise<{ store: EventStore; teardown: () => Promise<void> }>,
  gate: { available: boolean; reason?: string } = { available: true },
) {
  describe.skipIf(!gate.available)(
    `EventStore contract: ${adapterName}${gate.available ? '' : ` (not run: ${gate.reason})`}`,
    () => {
      let store: EventStore;
      let teardown: () => Promise<void>;
      const run = randomUUID().slice(0, 8);
      const typeA = `ContractA${run}`;
      const typeB = `ContractB${run}`;
      const stream = (name: string) => `contract${run}-${name}`;

      const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
        type,
        data: { ...data, padding: 'x'.repeat(50) },
        metadata: {
          eventId: randomUUID(),
          correlationId: 'corr-1',
          causationId: 'cause-1',
          actor: { kind: 'system', id: 'contract-test' },
          timestamp: new Date().toISOString(),
          schemaVersion: 1,
        },
      });

      /**
       * Pages through $all until the end. An append is visible in $all once every transaction older than
       * it has finished (gap-free reading), so callers retry until what they appended shows up.
       */
      async function readEverything(options: { maxCount: number; filter?: AllFilter; after?: AllBatch['next'] }) {
        const events: RecordedEvent[] = [];
        let after = options.after;
        for (let guard = 0; guard < 10_000; guard++) {
          const batch = await store.readAll({ after, maxCount: options.maxCount, filter: options.filter });
          if (batch.events.length > options.maxCount) throw new Error('batch larger than maxCount');
          events.push(...batch.events);
          after = batch.next;
          if (batch.atEnd) break;
        }
        return events;
      }

      beforeAll(async () => {
        ({ store, teardown } = await setup());
      });
      afterAll(async () => {
        await teardown?.();
      });

      it('appends to a new stream and reads it back in order, with metadata', async () => {
        const id = stream('read-back');
        const first = await store.appendToStream(id, [event(typeA, { n: 1 }), event(typeA, { n: 2 })], {
          expectedRevision: 'no_stream',
        });
        expect(first.nextExpectedRevision).toBe(1n);
        const second = await store.appendToStream(id, [event(typeB, { n: 3 })], { expectedRevision: 1n });
        expect(second.nextExpectedRevision).toBe(2n);
        expect(comparePositions(second.position, first.position)).toBe(1);

        const events = await store.readStream(id);
        expect(events.map((e) => [e.type, (e.data as { n: number }).n, e.streamPosition])).toEqual([
          [typeA, 1, 0n],
          [typeA, 2, 1n],
          [typeB, 3, 2n],
        ]);
        expect(events[0]!.metadata.correlationId).toBe('corr-1');
        expect(events[0]!.metadata.actor).toEqual({ kind: 'system', id: 'contract-test' });
        expect((await store.readStream(id, { fromRevision: 2n })).map((e) => e.streamPosition)).toEqual([2n]);
      });

      it('orders by number, not by text, past ten events and across appends', async () => {
        const id = stream('many');
        const first = await store.appendToStream(
          id,
          Array.from({ length: 12 }, (_, n) => event(typeA, { n })),
          { expectedRevision: 'no_stream' },
        );
        await store.appendToStream(
          id,
          Array.from({ length: 3 }, (_, n) => event(typeA, { n: n + 12 })),
          { expectedRevision: first.nextExpectedRevision },
        );
        const numbers = (events: RecordedEvent[]) =>
          events.filter((e) => e.streamId === id).map((e) => (e.data as { n: number }).n);
        expect(numbers(await store.readStream(id))).toEqual(Array.from({ length: 15 }, (_, n) => n));
        await expect
          .poll(async () => numbers(await readEverything({ maxCount: 5, filter: { eventTypes: [typeA] } })), {
            timeout: 5000,
          })
          .toEqual(Array.from({ length: 15 }, (_, n) => n));
      });

      it('returns nothing for a stream that does not exist', async () => {
        expect(await store.readStream(stream('never-written'))).toEqual([]);
      });

      it('rejects a wrong expected revision and stores nothing', async () => {
        const id = stream('conflict');
        await store.appendToStream(id, [event(typeA)], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStream(id, [event(typeA)], { expectedRevision: 'no_stream' }),
        ).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(
          store.appendToStream(id, [event(typeA), event(typeA)], { expectedRevision: 5n }),
        ).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(
          store.appendToStream(stream('missing'), [event(typeA)], { expectedRevision: 'stream_exists' }),
        ).rejects.toBeInstanceOf(WrongExpectedVersionError);
        expect(await store.readStream(id)).toHaveLength(1);
        const any = await store.appendToStream(id, [event(typeA)], { expectedRevision: 'any' });
        expect(any.nextExpectedRevision).toBe(1n);
      });

      it('lets exactly one of 20 concurrent appends at the same revision win', async () => {
        const id = stream('race');
        await store.appendToStream(id, [event(typeA)], { expectedRevision: 'no_stream' });
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) =>
            store.appendToStream(id, [event(typeB, { writer: i }), event(typeB, { writer: i })], {
              expectedRevision: 0n,
            }),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(19);
        for (const failure of lost) expect(failure.reason).toBeInstanceOf(WrongExpectedVersionError);
        const stored = await store.readStream(id);
        expect(stored).toHaveLength(3);
        // Both events of the winner, nothing partial of any loser.
        expect(new Set(stored.slice(1).map((e) => (e.data as { writer: number }).writer)).size).toBe(1);
      });

      it('lets exactly one of 20 concurrent first appends win', async () => {
        const id = stream('first-race');
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.appendToStream(id, [event(typeA)], { expectedRevision: 'no_stream' })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results)
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedVersionError);
        expect(await store.readStream(id)).toHaveLength(1);
      });

      it('reads $all in order, in batches, filtered by type and by category', async () => {
        const typeC = `ContractC${run}`;
        const written: string[] = [];
        for (let i = 0; i < 7; i++) {
          const e = event(i % 2 ? typeC : typeA, { i });
          written.push(e.metadata.eventId);
          await store.appendToStream(stream(`all-${i}`), [e], { expectedRevision: 'no_stream' });
        }
        const mineOf = (events: RecordedEvent[]) =>
          events.filter((e) => written.includes(e.metadata.eventId)).map((e) => e.metadata.eventId);
        await expect
          .poll(async () => mineOf(await readEverything({ maxCount: 2, filter: { eventTypes: [typeA, typeC] } })), {
            timeout: 5000,
          })
          .toEqual(written);
        const seen = await readEverything({ maxCount: 2, filter: { eventTypes: [typeA, typeC] } });
        for (let i = 1; i < seen.length; i++)
          expect(comparePositions(seen[i]!.position, seen[i - 1]!.position)).toBe(1);

        const onlyC = await readEverything({ filter: { eventTypes: [typeC] }, maxCount: 100 });
        expect(onlyC.map((e) => (e.data as { i: number }).i)).toEqual([1, 3, 5]);

        const category = `contract${run}`;
        const byCategory = await readEverything({ filter: { categories: [category] }, maxCount: 1000 });
        expect(byCategory.length).toBeGreaterThanOrEqual(7);
        expect(byCategory.every((e) => e.streamId.startsWith(`${category}-`))).toBe(true);
      });

      it('moves a filtered reader past events it does not want', async () => {
        const head = await store.headPosition();
        await store.appendToStream(stream('unwanted'), [event(typeB)], { expectedRevision: 'any' });
        await expect
          .poll(
            async () => {
              const batch = await store.readAll({
                after: head,
                filter: { eventTypes: [`Nothing${run}`] },
                maxCount: 10,
              });
              expect(batch.events).toEqual([]);
              expect(batch.atEnd).toBe(true);
              return comparePositions(batch.next, head);
            },
            { timeout: 5000 },
          )
          .toBe(1);
      });

      it('reports the head position as the last appended event', async () => {
        const appended = await store.appendToStream(stream('head'), [event(typeA)], { expectedRevision: 'any' });
        await expect
          .poll(async () => comparePositions(await store.headPosition(), appended.position), { timeout: 5000 })
          .toBeGreaterThanOrEqual(0);
      });

      it('subscribes to $all: catch-up first, then live', async () => {
        const typeS = `ContractS${run}`;
        const id = stream('subscription');
        await store.appendToStream(id, [event(typeS, { n: 0 }), event(typeS, { n: 1 })], {
          expectedRevision: 'no_stream',
        });
        const received: number[] = [];
        let resolveDone!: () => void;
        const done = new Promise<void>((resolve) => (resolveDone = resolve));
        const subscription = store.subscribeToAll({
          filter: { eventTypes: [typeS] },
          maxCount: 1,
          onBatch: async (batch) => {
            for (const e of batch.events) received.push((e.data as { n: number }).n);
            if (received.length >= 5) resolveDone();
          },
        });
        await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
        await store.appendToStream(id, [event(typeS, { n: 2 })], { expectedRevision: 1n });
        await store.appendToStream(id, [event(typeS, { n: 3 }), event(typeS, { n: 4 })], { expectedRevision: 2n });
        await done;
        await subscription.stop();
        expect(received).toEqual([0, 1, 2, 3, 4]);
      });

      it('tombstones a deleted stream: reads and appends fail, other streams are untouched', async () => {
        const id = stream('deleted');
        const other = stream('kept');
        await store.appendToStream(id, [event(typeA)], { expectedRevision: 'no_stream' });
        await store.appendToStream(other, [event(typeA)], { expectedRevision: 'no_stream' });
        await expect(store.deleteStream(id, { expectedRevision: 7n })).rejects.toBeInstanceOf(
          WrongExpectedVersionError,
        );
        await store.deleteStream(id, { expectedRevision: 0n });
        await expect(store.readStream(id)).rejects.toBeInstanceOf(StreamDeletedError);
        await expect(store.appendToStream(id, [event(typeA)], { expectedRevision: 'any' })).rejects.toBeInstanceOf(
          StreamDeletedError,
        );
        expect(await store.readStream(other)).toHaveLength(1);
      });
    },
  );
}
