import type { RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Sql } from '../sql/sql.port.js';
import { createPostgresEventStore } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createProjectionRunner } from './projection-runner.js';
import { noted } from '../event-store/testing/test-event.js';

const gate = await postgresAvailability();

/** A projection whose output depends on its version: v1 stores n, v2 stores n × 10. */
const versioned = (version: number, applied: number[] = []): Projection => ({
  name: 'noted',
  version,
  eventTypes: ['Noted'],
  tables: ['noted'],
  migrations: [{ id: '001-noted', sql: `CREATE TABLE IF NOT EXISTS noted (n int PRIMARY KEY)` }],
  async apply(db, events: readonly RecordedEvent[]) {
    for (const e of events) {
      const n = (e.data as { n: number }).n * (version === 1 ? 1 : 10);
      applied.push(n);
      await db.query(`INSERT INTO noted (n) VALUES ($1)`, [n]);
    }
  },
});

describe.skipIf(!gate.available)('projection runner', () => {
  let sql: Sql;
  let store: EventStore;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ sql, store, close } = await createPostgresEventStore());
  });
  afterAll(async () => close?.());
  const rows = async () => (await sql.query<{ n: number }>(`SELECT n FROM noted ORDER BY n`)).rows.map((r) => r.n);

  it('resumes from its checkpoint, and rebuilds from zero when the projection version changes', async () => {
    const first = await store.appendToStream('note-1', [noted(1), noted(2)], { expectedRevision: 'no_stream' });
    const v1 = createProjectionRunner({ eventStore: store, sql, projections: [versioned(1)] });
    await v1.start();
    expect(await v1.waitForPosition(first.position)).toBe(true);
    await v1.stop();
    expect(await rows()).toEqual([1, 2]);

    // Restarted at the same version: only the new event is applied.
    const appliedAgain: number[] = [];
    const second = await store.appendToStream('note-1', [noted(3)], { expectedRevision: 1n });
    const v1again = createProjectionRunner({ eventStore: store, sql, projections: [versioned(1, appliedAgain)] });
    await v1again.start();
    expect(await v1again.waitForPosition(second.position)).toBe(true);
    await v1again.stop();
    expect(appliedAgain).toEqual([3]);
    expect(await rows()).toEqual([1, 2, 3]);

    // A new version: tables dropped, everything applied again from the first event.
    const v2 = createProjectionRunner({ eventStore: store, sql, projections: [versioned(2)] });
    await v2.start();
    expect(await v2.waitForPosition(second.position)).toBe(true);
    await v2.stop();
    expect(await rows()).toEqual([10, 20, 30]);
  });

  it('rebuilds one projection on demand while running', async () => {
    const runner = createProjectionRunner({ eventStore: store, sql, projections: [versioned(2)] });
    await runner.start();
    const head = await store.headPosition();
    expect(await runner.waitForPosition(head)).toBe(true);
    await sql.query(`DELETE FROM noted`);
    await runner.rebuild('noted');
    expect(await runner.waitForPosition(head)).toBe(true);
    expect(await rows()).toEqual([10, 20, 30]);
    await runner.stop();
  });
});

describe.skipIf(!gate.available)('a read model’s migration list', () => {
  let sql: Sql;
  let store: EventStore;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ sql, store, close } = await createPostgresEventStore());
  });
  afterAll(async () => close?.());

  const tagged = (migrations: Projection['migrations']): Projection => ({
    name: 'tagged',
    version: 1,
    eventTypes: ['Noted'],
    tables: ['tagged'],
    migrations,
    async apply(db, events) {
      for (const e of events) await db.query(`INSERT INTO tagged (n) VALUES ($1)`, [(e.data as { n: number }).n]);
    },
  });
  const first = { id: '001-tagged', sql: `CREATE TABLE IF NOT EXISTS tagged (n int PRIMARY KEY)` };
  const second = { id: '002-tag', sql: `ALTER TABLE tagged ADD COLUMN tag text NOT NULL DEFAULT 'old'` };

  it('applies a migration added later without a rebuild, and the whole list again on a rebuild', async () => {
    const appended = await store.appendToStream('tag-1', [noted(7)], { expectedRevision: 'no_stream' });
    const v1 = createProjectionRunner({ eventStore: store, sql, projections: [tagged([first])] });
    await v1.start();
    expect(await v1.waitForPosition(appended.position)).toBe(true);
    await v1.stop();

    // The list grew: the new column appears, the rows stay, nothing is read again.
    const grown = createProjectionRunner({ eventStore: store, sql, projections: [tagged([first, second])] });
    await grown.start();
    expect((await sql.query(`SELECT n, tag FROM tagged`)).rows).toEqual([{ n: 7, tag: 'old' }]);
    await sql.query(`UPDATE tagged SET tag = 'kept'`);

    // A rebuild drops the table and applies both migrations from the first.
    await grown.rebuild('tagged');
    expect(await grown.waitForPosition(appended.position)).toBe(true);
    expect((await sql.query(`SELECT n, tag FROM tagged`)).rows).toEqual([{ n: 7, tag: 'old' }]);
    await grown.stop();
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id FROM schema_migrations WHERE module = 'read-model:tagged' ORDER BY id`,
    );
    expect(rows.map((row) => row.id)).toEqual(['001-tagged', '002-tag']);
  });
});
