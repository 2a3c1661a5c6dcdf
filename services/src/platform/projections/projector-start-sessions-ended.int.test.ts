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
      // The schema lock is taken before the projector starts, so its start is held at its one migration
      // transaction (compose-platform's runMigrations). A second session then queues for the lock behind
      // that migration, and only then is the first let go: the migration runs, and the queued session gets
      // the lock before any checkpoint load asks for it, so every load waits — there is no moment in which
      // the loads can all pass before the test holds the lock (a missed window failed a loaded CI run).
      const holder = new pg.Client({ connectionString: db.url });
      const queued = new pg.Client({ connectionString: db.url });
      await holder.connect();
      await queued.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
      const projector = startMain('projector', { DATABASE_URL: db.url, METRICS_PORT: '0' });
      let ended = 0;
      let queuedLock: Promise<unknown> | undefined;
      try {
        const projectorSessions = `FROM pg_stat_activity WHERE application_name LIKE 'kesher-projector%' AND datname = current_database()`;
        const waitingOnTheLock = `${projectorSessions} AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`;
        await waitUntil(
          async () => projector.exitCode !== null || (await sql.query(`SELECT 1 ${waitingOnTheLock}`)).rows.length > 0,
          { timeoutMs: 120_000, what: `the projector's migration waiting for the schema lock\n${projector.output()}` },
        );
        const { rows: queuedPid } = await queued.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        queuedLock = queued.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
        await waitUntil(
          async () =>
            (
              await sql.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [
                queuedPid[0]!.pid,
              ])
            ).rows.length > 0,
          { timeoutMs: 60_000, what: 'the second session queued for the schema lock' },
        );
        await holder.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]);
        await queuedLock;
        // The migration has run; the schema lock is held again, and every checkpoint load waits for it. Three
        // times, the waiting load's session is ended; then the lock is let go and the start must go on.
        for (let round = 0; round < 3; round++) {
          await waitUntil(
            async () =>
              projector.exitCode !== null || (await sql.query(`SELECT 1 ${waitingOnTheLock}`)).rows.length > 0,
            { timeoutMs: 60_000, what: `a checkpoint load waiting for the schema lock\n${projector.output()}` },
          );
          const { rows } = await sql.query<{ n: number }>(
            `SELECT count(pg_terminate_backend(pid))::int AS n ${waitingOnTheLock}`,
          );
          ended += rows[0]!.n;
        }
        await queued.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]);
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
        await queuedLock?.catch(() => {});
        await Promise.all([holder.end(), queued.end()]);
        projector.kill('SIGTERM');
        await exited(projector);
      }
    });
  },
);
