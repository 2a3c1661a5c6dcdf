import { randomUUID } from 'node:crypto';
import { START_POSITION } from '@kesher/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../testing/platform-fixture.js';
import { waitUntil } from '../../testing/processes.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createCopyLogReader } from './copy-log-reader.js';
import { createSqlLogReader } from './sql-log-reader.js';
import { noted } from '../../platform/event-store/testing/test-event.js';

const gate = await postgresAvailability();

/** A connection in `url` holding a transaction open (and an xid), the way another tenant or an analyst would. */
async function openTransaction(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()');
  return { client, end: async () => (await client.query('ROLLBACK'), await client.end()) };
}

/**
 * The export reads the log with the store's own horizon: a transaction open in another database of the
 * server does not hide an acknowledged append from it (with pg_snapshot_xmin the head stayed before it),
 * and a session Postgres ends under a COPY fails that copy, not the process, and the broken client is not
 * handed out again. (pg sends an error during a query to the query; the reader's client 'error' listener
 * covers a session ended while a checked-out client is between statements, which this does not reach.)
 */
describe.skipIf(!gate.available)(
  `the export's log readers${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let fixture: Awaited<ReturnType<typeof createPostgresEventStore>>;
    let other: Awaited<ReturnType<typeof createTestDatabase>>;
    beforeAll(async () => {
      fixture = await createPostgresEventStore();
      other = await createTestDatabase('kesher_scratch', { empty: true });
    });
    afterAll(async () => {
      await fixture?.close();
      await other?.drop();
    });

    it('reads up to an append made while another database holds a transaction open', async () => {
      const elsewhere = await openTransaction(other.url);
      const copy = createCopyLogReader(fixture.db.url);
      try {
        const appended = await fixture.store.appendToStream(`export-${randomUUID()}`, [noted(1)], {
          expectedRevision: 'no_stream',
        });
        const reader = createSqlLogReader(fixture.sql);
        expect(await reader.head()).toEqual(appended.position);
        expect(await copy.head()).toEqual(appended.position);
        expect((await reader.page(START_POSITION, 100)).map((event) => event.position)).toContainEqual(
          appended.position,
        );
      } finally {
        await copy.close();
        await elsewhere.end();
      }
    });

    it('a COPY whose session is ended fails that copy; the process and the pool go on', async () => {
      const appended = await fixture.store.appendToStream(`export-${randomUUID()}`, [noted(2)], {
        expectedRevision: 'no_stream',
      });
      const copy = createCopyLogReader(fixture.db.url);
      // The COPY waits on this lock, so its session can be ended while it is under way.
      const locker = new pg.Client({ connectionString: fixture.db.url });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      try {
        const copying = (async () => {
          for await (const chunk of copy.copy({ after: START_POSITION, upto: appended.position })) void chunk;
        })();
        const settled = copying.then(
          () => 'finished',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
        await waitUntil(
          // Not on the locker: pg_stat_activity is read once per transaction.
          async () =>
            (
              await fixture.sql.query(
                `SELECT 1 FROM pg_stat_activity WHERE application_name = 'kesher-export' AND wait_event_type = 'Lock' AND datname = current_database()`,
              )
            ).rows.length,
          { what: 'the COPY to wait on the lock' },
        );
        await fixture.sql.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'kesher-export' AND datname = current_database()`,
        );
        expect(await settled).toMatch(/terminat/i);
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
      // The broken client was dropped: the next call gets a new session.
      expect(await copy.head()).toEqual(appended.position);
      await copy.close();
    });
  },
);
