import type { Queryable } from '@kesher/contracts/ports/projection';
import { describe, expect, it } from 'vitest';
import { recorded } from '../testing/given-then.js';
import { defineBatchProjection, defineProjection, eventsOf } from './typed-projection.js';

/** A connection that records the statements it is given, in order. */
function recordingDb() {
  const statements: [string, readonly unknown[] | undefined][] = [];
  const db: Queryable = {
    query: async (text, params) => {
      statements.push([text, params]);
      return { rows: [] };
    },
  };
  return { db, statements };
}

const started = (threadId: string) =>
  recorded('ThreadStarted', {
    threadId,
    assistantId: 'a-1',
    assistantOwnerId: 'o-1',
    ownerId: 'o-1',
    visitorSessionHash: null,
    isPublic: false,
    channel: 'app',
  });
const deleted = (threadId: string) => recorded('ThreadDeleted', { threadId });
const renamed = (threadId: string) => recorded('ThreadRenamed', { threadId, title: 'Prices' });

describe('typed projections', () => {
  const base = { name: 'test', version: 1, migrations: [], tables: [] };

  it("declares its handlers' event types, and calls each event's own handler in log order", async () => {
    const projection = defineProjection({
      ...base,
      on: {
        ThreadStarted: async (db, event) => void (await db.query('started', [event.data.threadId])),
        ThreadDeleted: async (db, event) => void (await db.query('deleted', [event.data.threadId])),
      },
    });
    expect(projection.eventTypes).toEqual(['ThreadStarted', 'ThreadDeleted']);
    const { db, statements } = recordingDb();
    // An event of a type it has no handler for (the runner never sends one; a test might) is skipped.
    await projection.apply(db, [started('t-1'), renamed('t-1'), deleted('t-1'), started('t-2')]);
    expect(statements).toEqual([
      ['started', ['t-1']],
      ['deleted', ['t-1']],
      ['started', ['t-2']],
    ]);
  });

  it('hands a batch projection only its own types, in order, and eventsOf picks one kind', async () => {
    const seen: string[] = [];
    const projection = defineBatchProjection({
      ...base,
      eventTypes: ['ThreadStarted', 'ThreadDeleted'],
      async applyBatch(_db, events) {
        for (const event of events) seen.push(`${event.type}:${event.data.threadId}`);
        seen.push(`deleted:${eventsOf(events, 'ThreadDeleted').map((e) => e.data.threadId)}`);
      },
    });
    await projection.apply(recordingDb().db, [started('t-1'), renamed('t-1'), deleted('t-1'), started('t-2')]);
    expect(seen).toEqual(['ThreadStarted:t-1', 'ThreadDeleted:t-1', 'ThreadStarted:t-2', 'deleted:t-1']);
  });
});
