import type { RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPglite } from '../../testing/test-database.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import type { Sql } from '../sql/sql.port.js';
import { readAllCheckpoints } from './checkpoints.js';
import { rebuildTogether, RebuildInterruptedError } from './rebuild-together.js';
import { testEvent } from '../event-store/testing/test-event.js';

const event = (type: string, n: number) => testEvent(type, { n });

/** Sums `n` per event type into its own table, and remembers how many events each batch gave it. */
const summing = (name: string, eventTypes: string[], batches: number[] = []): Projection => ({
  name,
  version: 1,
  eventTypes,
  tables: [name],
  migrations: [
    {
      id: '001',
      sql: `CREATE TABLE IF NOT EXISTS ${name} (type text PRIMARY KEY, total int NOT NULL, events int NOT NULL)`,
    },
  ],
  async apply(db, events: readonly RecordedEvent[]) {
    batches.push(events.length);
    for (const e of events) {
      await db.query(
        `INSERT INTO ${name} (type, total, events) VALUES ($1, $2, 1) ON CONFLICT (type) DO UPDATE SET total = ${name}.total + excluded.total, events = ${name}.events + 1`,
        [e.type, (e.data as { n: number }).n],
      );
    }
  },
});

// On the embedded PGlite (one backend: the read models' transactions of a batch queue there), as `npm run
// replay` runs in the default set-up; the analytics backfill test runs it on Postgres.
describe('rebuilding several read models in one pass over the log', () => {
  let sql: Sql;
  let store: EventStore;
  beforeAll(async () => {
    sql = await createTestPglite();
    store = await createSqlEventStore({ sql });
    // 40 events over 8 streams: 1..40, types by remainder.
    for (let s = 0; s < 8; s++) {
      const types = ['Apple', 'Pear', 'Plum', 'Other'];
      await store.appendToStream(
        `fruit-${s}`,
        Array.from({ length: 5 }, (_, i) => event(types[(s * 5 + i) % 4]!, s * 5 + i + 1)),
        { expectedRevision: 'no_stream' },
      );
    }
  });
  afterAll(async () => {
    await store?.close();
    await sql?.close();
  });

  const rows = async (table: string) =>
    (
      await sql.query<{ type: string; total: number; events: number }>(
        `SELECT type, total, events FROM ${table} ORDER BY type`,
      )
    ).rows;

  it("gives each read model exactly its own events' history, batch by batch, and leaves every checkpoint at the head", async () => {
    const fruitBatches: number[] = [];
    const fruit = summing('rt_fruit', ['Apple', 'Pear'], fruitBatches);
    const plums = summing('rt_plums', ['Plum']);
    const head = await store.headPosition();
    const result = await rebuildTogether({ eventStore: store, sql, projections: [fruit, plums], batchSize: 7 });
    // Apples are 1, 5, 9 … 37 (10 events), pears 2, 6 … 38, plums 3, 7 … 39; "Other" is nobody's.
    expect(await rows('rt_fruit')).toEqual([
      { type: 'Apple', total: 190, events: 10 },
      { type: 'Pear', total: 200, events: 10 },
    ]);
    expect(await rows('rt_plums')).toEqual([{ type: 'Plum', total: 210, events: 10 }]);
    // Only the types some read model takes are read: 30 of the 40, 7 at a time.
    expect(result).toEqual({ events: 30, position: head });
    expect(fruitBatches.reduce((a, b) => a + b, 0)).toBe(20);
    expect(Math.max(...fruitBatches)).toBeLessThanOrEqual(7);
    const checkpoints = await readAllCheckpoints(sql);
    expect(checkpoints.rt_fruit).toEqual(head);
    expect(checkpoints.rt_plums).toEqual(head);

    // Again: dropped and computed from the first event, not added on top.
    await rebuildTogether({ eventStore: store, sql, projections: [fruit, plums], batchSize: 100 });
    expect(await rows('rt_fruit')).toEqual([
      { type: 'Apple', total: 190, events: 10 },
      { type: 'Pear', total: 200, events: 10 },
    ]);
  });

  it('stops with RebuildInterruptedError when another reader moves a checkpoint, and that batch is not written', async () => {
    const plums = summing('rt_moved', ['Plum']);
    const moving: Projection = {
      ...plums,
      async apply(db, events) {
        await plums.apply(db, events);
        // What a projector running elsewhere does: it moves the same checkpoint on.
        await db.query(
          `UPDATE projection_checkpoints SET prepare_position = prepare_position + 1000 WHERE name = 'rt_moved'`,
        );
      },
    };
    await expect(
      rebuildTogether({ eventStore: store, sql, projections: [moving], batchSize: 7 }),
    ).rejects.toBeInstanceOf(RebuildInterruptedError);
    expect(await rows('rt_moved')).toEqual([]);
  });
});
