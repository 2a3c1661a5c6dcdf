import { randomUUID } from 'node:crypto';
import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assistantSlotsDecider,
  type AssistantSlotsCommand,
} from '../../domain/assistant-slots/assistant-slots.decider.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { WrongExpectedVersionError, type EventStore } from '../event-store/event-store.port.js';
import { withEventSchemas } from '../event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { aggregateStream } from './aggregate-stream.js';
import { handleCommand } from './command-handler.js';
import { DomainError } from './decider.js';

const gate = await postgresAvailability();

const context = {
  actor: { kind: 'system', id: 'test' } as const,
  correlationId: 'command-handler',
  now: new Date('2026-03-01T10:00:00Z'),
};
const take = (ownerId: string, assistantId: string, limit: number): AssistantSlotsCommand => ({
  type: 'TakeAssistantSlot',
  data: { ownerId, assistantId, limit },
});
const forbidden = (error: unknown) => error instanceof DomainError && error.kind === 'forbidden';

describe.skipIf(!gate.available)(
  `the command handler (handleCommand)${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let raw: EventStore;
    let store: EventStore;
    let reads = 0;
    /** The store, counting stream reads (to see which handles read and which did not). */
    let counted: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url });
      raw = await createSqlEventStore({ sql });
      store = withEventSchemas(raw);
      counted = new Proxy(store, {
        get(target, key, receiver) {
          if (key === 'readStream')
            return (...args: Parameters<EventStore['readStream']>) => (reads++, target.readStream(...args));
          const value: unknown = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    });
    afterAll(async () => {
      await raw?.close();
      await sql?.close();
      await db?.drop();
    });

    const slots = async (ownerId: string) =>
      (await aggregateStream(store, assistantSlotsDecider, streamIds.assistantSlots(ownerId))).state.taken;

    it('decides again on the new state when another writer appended in between', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      const seen: (readonly string[])[] = [];
      const handled = await handleCommand(
        store,
        assistantSlotsDecider,
        stream,
        async (state) => {
          seen.push(state.taken);
          // The first decision is overtaken by another create that takes the last slot but one.
          if (seen.length === 1)
            await handleCommand(store, assistantSlotsDecider, stream, take(owner, 'other', 2), context);
          return assistantSlotsDecider.decide(take(owner, 'mine', 2), state);
        },
        context,
      );
      expect(seen).toEqual([[], ['other']]);
      expect(handled.state.taken).toEqual(['other', 'mine']);
      expect(handled.revision).toBe(1n);
      expect(await slots(owner)).toEqual(['other', 'mine']);
    });

    it('lets creates at once take exactly the slots there are (the decision is always on the state it is appended after)', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          handleCommand(store, assistantSlotsDecider, stream, take(owner, `a${i}`, 3), context, { maxAttempts: 30 }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of results) if (r.status === 'rejected') expect(forbidden(r.reason)).toBe(true);
      expect(await slots(owner)).toHaveLength(3);
    });

    it('gives up after maxAttempts conflicts, throwing the last one, with nothing appended by it', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      let decisions = 0;
      const always = handleCommand(
        store,
        assistantSlotsDecider,
        stream,
        async (state) => {
          decisions++;
          await handleCommand(store, assistantSlotsDecider, stream, take(owner, `rival${decisions}`, 100), context);
          return assistantSlotsDecider.decide(take(owner, 'mine', 100), state);
        },
        context,
        { maxAttempts: 3 },
      );
      await expect(always).rejects.toBeInstanceOf(WrongExpectedVersionError);
      expect(decisions).toBe(3);
      expect(await slots(owner)).toEqual(['rival1', 'rival2', 'rival3']);
    });

    it('with expected no_stream appends without a read, and on a stream already there appends nothing and says so', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      reads = 0;
      const first = await handleCommand(counted, assistantSlotsDecider, stream, take(owner, 'a1', 5), context, {
        expected: 'no_stream',
      });
      expect(first.appended?.nextExpectedRevision).toBe(0n);
      expect(first.existed).toBeUndefined();
      const again = await handleCommand(counted, assistantSlotsDecider, stream, take(owner, 'a2', 5), context, {
        expected: 'no_stream',
      });
      expect(again).toMatchObject({ events: [], existed: true, revision: 0n });
      expect(again.appended).toBeUndefined();
      expect(reads).toBe(0);
      expect(await slots(owner)).toEqual(['a1']);
    });

    it('with from decides on the state held and skips the read; a stale one costs one read and a second decision', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      const first = await handleCommand(store, assistantSlotsDecider, stream, take(owner, 'a1', 5), context);
      reads = 0;
      const second = await handleCommand(counted, assistantSlotsDecider, stream, take(owner, 'a2', 5), context, {
        from: first,
      });
      expect(reads).toBe(0);
      expect(second).toMatchObject({ revision: 1n, state: { taken: ['a1', 'a2'] } });
      // `first` is stale now: its append conflicts, and the decision is taken again on the stream's state.
      const third = await handleCommand(counted, assistantSlotsDecider, stream, take(owner, 'a3', 5), context, {
        from: first,
      });
      expect(reads).toBe(1);
      expect(third).toMatchObject({ revision: 2n, state: { taken: ['a1', 'a2', 'a3'] } });
    });

    it('decides a row of commands on the state each leaves, in one append; a tolerated refusal leaves out only its own events', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      const row = [
        take(owner, 'a1', 2),
        take(owner, 'a2', 2),
        take(owner, 'a3', 2),
        (state: { taken: readonly string[] }) => (state.taken.includes('a1') ? undefined : take(owner, 'never', 9)),
      ];
      await expect(handleCommand(store, assistantSlotsDecider, stream, row, context)).rejects.toSatisfy(forbidden);
      expect(await slots(owner)).toEqual([]);
      // Tolerated for another command only, the refusal still spoils the row.
      await expect(
        handleCommand(store, assistantSlotsDecider, stream, row, context, {
          tolerate: (error, command) =>
            forbidden(error) && command?.type === 'TakeAssistantSlot' && command.data.assistantId === 'a1',
        }),
      ).rejects.toSatisfy(forbidden);
      const handled = await handleCommand(store, assistantSlotsDecider, stream, row, context, {
        tolerate: (error, command) =>
          forbidden(error) && command?.type === 'TakeAssistantSlot' && command.data.assistantId === 'a3',
      });
      expect(handled.events.map((event) => event.data.assistantId)).toEqual(['a1', 'a2']);
      expect(handled.appended?.nextExpectedRevision).toBe(1n);
      expect(await slots(owner)).toEqual(['a1', 'a2']);
    });

    it('retries an error the caller names as stale like a conflict (and only as often)', async () => {
      const owner = randomUUID();
      const stream = streamIds.assistantSlots(owner);
      class Stale extends Error {}
      let decisions = 0;
      const handled = await handleCommand(
        store,
        assistantSlotsDecider,
        stream,
        (state) => {
          if (++decisions < 3) throw new Stale();
          return assistantSlotsDecider.decide(take(owner, 'a1', 1), state);
        },
        context,
        { retryOn: (error) => error instanceof Stale },
      );
      expect(decisions).toBe(3);
      expect(handled.state.taken).toEqual(['a1']);
      decisions = 0;
      await expect(
        handleCommand(
          store,
          assistantSlotsDecider,
          stream,
          () => {
            decisions++;
            throw new Stale();
          },
          context,
          { retryOn: (error) => error instanceof Stale, maxAttempts: 2 },
        ),
      ).rejects.toBeInstanceOf(Stale);
      expect(decisions).toBe(2);
    });
  },
);
