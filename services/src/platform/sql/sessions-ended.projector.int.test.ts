import { streamIds, type AllPosition, type NewEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { readCheckpoint } from '../projections/checkpoints.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { exited, startMain, waitUntil } from '../../testing/processes.js';
import { assistantCreatedEvent } from '../../testing/platform-fixture.js';
import { createPgSql } from './pg.sql.js';
import type { Sql } from './sql.port.js';

const gate = await postgresAvailability();
const ROUNDS = 6;

const created = (n: number): NewEvent => assistantCreatedEvent(n, { assistantId: `a${n}` });

/**
 * The projector process while Postgres ends every one of its sessions, again and again, with appends in
 * between (a failover, `pg_terminate_backend`): it must stay up and project everything once the database
 * lets it. Before, the unheard 'error' of a pooled client in a transaction exited it with 1.
 */
describe.skipIf(!gate.available)(
  `projector whose sessions Postgres ends${gate.available ? '' : ` (not run: ${gate.reason})`}`,
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

    const caughtUp = (position: AllPosition) => async () =>
      ((await readCheckpoint(sql, 'assistants'))?.position.prepare ?? -1n) >= position.prepare;
    const endProjectorSessions = () =>
      sql.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name LIKE 'kesher-projector%' AND datname = current_database()`,
      );

    it('stays up and projects every append made between the terminations', { timeout: 180_000 }, async () => {
      const projector = startMain('projector', { DATABASE_URL: db.url, METRICS_PORT: '0', PROJECTOR_BATCH_SIZE: '5' });
      try {
        let n = 0;
        let last = await store.appendToStream(streamIds.assistant(`a${n}`), [created(n++)], {
          expectedRevision: 'no_stream',
        });
        // Started: every read model's subscription is running (sessions ended while it starts:
        // projections/projector-start-sessions-ended.int.test.ts).
        await waitUntil(() => projector.output().includes('projector running'), {
          timeoutMs: 90_000,
          what: 'the projector to start',
        });
        await waitUntil(caughtUp(last.position), {
          timeoutMs: 60_000,
          what: `the projector to project\n${projector.output()}`,
        });

        for (let round = 0; round < ROUNDS; round++) {
          // Appends land while the projector applies batches in transactions; then its sessions end.
          for (let i = 0; i < 20; i++)
            last = await store.appendToStream(streamIds.assistant(`a${n}`), [created(n++)], {
              expectedRevision: 'no_stream',
            });
          await endProjectorSessions();
          expect(projector.exitCode, projector.output()).toBeNull();
        }
        last = await store.appendToStream(streamIds.assistant(`a${n}`), [created(n++)], {
          expectedRevision: 'no_stream',
        });
        await waitUntil(caughtUp(last.position), {
          timeoutMs: 60_000,
          what: `the projector to catch up\n${projector.output()}`,
        });
        expect(projector.exitCode, projector.output()).toBeNull();
        expect((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM assistants`)).rows[0]!.n).toBe(n);
      } finally {
        projector.kill('SIGTERM');
        await exited(projector);
      }
    });
  },
);
