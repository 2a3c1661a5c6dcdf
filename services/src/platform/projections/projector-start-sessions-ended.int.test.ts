import { streamIds, type NewEvent } from '@kesher/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { createPgSql } from '../sql/pg.sql.js';
import { SCHEMA_LOCK_KEY, type Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { exited, startMain, waitUntil } from '../../testing/processes.js';
import { assistantCreatedEvent } from '../../testing/platform-fixture.js';
import { readCheckpoint } from './checkpoints.js';

const gate = await postgresAvailability();

const created = (n: number): NewEvent => assistantCreatedEvent(n, { assistantId: `s${n}` });

/**
 * The projector process while Postgres ends its sessions as it starts (inside its read models' first
 * checkpoint loads, three times): it must come up and project, not exit 1 as it did when a first load was
 * not tried again.
 */
describe.skipIf(!gate.available)(
  `projector whose sessions end while it starts${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url, max: 2 });
      store = await createSqlEventStore({ sql });
    });
    afterAll(async () => {
      await store?.close();
      await sql?.close();
      await db?.drop();
    });

    it('comes up and projects while its sessions are ended during the start', { timeout: 180_000 }, async () => {
      const first = await store.appendToStream(streamIds.assistant('s0'), [created(0)], {
        expectedRevision: 'no_stream',
      });
      const projector = startMain('projector', { DATABASE_URL: db.url, METRICS_PORT: '0' });
      let ended = 0;
      try {
        // Once the read models' checkpoint loads have begun (the schema migrations before them are not this
        // test's subject), the test takes the schema lock: the next load waits for it inside its transaction,
        // and that session is ended there. Then the lock is let go and the start must go on.
        const projectorSessions = `FROM pg_stat_activity WHERE application_name LIKE 'kesher-projector%' AND datname = current_database()`;
        await waitUntil(
          async () =>
            projector.exitCode !== null ||
            (await sql.query(`SELECT 1 ${projectorSessions} AND query LIKE '%projection_checkpoints%'`)).rows.length >
              0,
          { timeoutMs: 120_000, intervalMs: 5, what: 'the first checkpoint load' },
        );
        const locker = new pg.Client({ connectionString: db.url });
        await locker.connect();
        try {
          await locker.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
          for (let round = 0; round < 3; round++) {
            await waitUntil(
              async () =>
                projector.exitCode !== null ||
                (
                  await sql.query(
                    `SELECT 1 ${projectorSessions} AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`,
                  )
                ).rows.length > 0,
              { timeoutMs: 60_000, what: `a checkpoint load waiting for the schema lock\n${projector.output()}` },
            );
            const { rows } = await sql.query<{ n: number }>(
              `SELECT count(pg_terminate_backend(pid))::int AS n ${projectorSessions} AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`,
            );
            ended += rows[0]!.n;
          }
        } finally {
          await locker.end();
        }
        await waitUntil(() => projector.output().includes('projector running') || projector.exitCode !== null, {
          timeoutMs: 120_000,
          what: 'the projector to start or exit',
        });
        expect(projector.exitCode, projector.output()).toBeNull();
        expect(ended).toBeGreaterThan(0);
        const last = await store.appendToStream(streamIds.assistant('s1'), [created(1)], {
          expectedRevision: 'no_stream',
        });
        await waitUntil(
          async () => ((await readCheckpoint(sql, 'assistants'))?.position.prepare ?? -1n) >= last.position.prepare,
          { timeoutMs: 60_000, what: `the projector to project\n${projector.output()}` },
        );
        expect(first.position.prepare).toBeLessThan(last.position.prepare);
        expect((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM assistants`)).rows[0]!.n).toBe(2);
      } finally {
        projector.kill('SIGTERM');
        await exited(projector);
      }
    });
  },
);
