import { streamIds, type AllPosition } from '@kesher/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlEventStore } from '../platform/event-store/sql-event-store.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import { readCheckpoint } from '../platform/projections/checkpoints.js';
import { createPgSql } from '../platform/sql/pg.sql.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { assistantCreatedEvent } from '../testing/platform-fixture.js';
import { exited, startMain, waitUntil } from '../testing/processes.js';
import { createTestDatabase, postgresAvailability } from '../testing/test-database.js';

const gate = await postgresAvailability();

/**
 * A real process (the projector) stopped by SIGTERM: while it applies batches it closes and exits 0
 * within SHUTDOWN_TIMEOUT_MS; when its close cannot finish (its batch is held on a lock this test
 * keeps), the deadline ends it with 1 instead of leaving it for the orchestrator's SIGKILL.
 */
describe.skipIf(!gate.available)(
  `a process's shutdown deadline${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    let n = 0;
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

    const applied = async () => (await readCheckpoint(sql, 'assistants'))?.position.prepare ?? -1n;
    async function append(count: number): Promise<AllPosition> {
      let last: AllPosition | undefined;
      for (let i = 0; i < count; i++)
        last = (
          await store.appendToStream(streamIds.assistant(`a${n}`), [assistantCreatedEvent(n++)], {
            expectedRevision: 'no_stream',
          })
        ).position;
      return last!;
    }
    async function startProjector(deadlineMs: number) {
      const projector = startMain('projector', {
        DATABASE_URL: db.url,
        METRICS_PORT: '0',
        PROJECTOR_BATCH_SIZE: '5',
        SHUTDOWN_TIMEOUT_MS: String(deadlineMs),
      });
      await waitUntil(() => projector.output().includes('projector running') || projector.exitCode !== null, {
        timeoutMs: 90_000,
        what: 'the projector to start',
      });
      expect(projector.exitCode, projector.output()).toBeNull();
      return projector;
    }
    const logLines = (output: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);

    it('exits 0 within its deadline when stopped while projecting', { timeout: 180_000 }, async () => {
      const projector = await startProjector(10_000);
      const before = await applied();
      const last = await append(300);
      // Busy: it has started on the appends and not finished them.
      await waitUntil(async () => (await applied()) > before, {
        timeoutMs: 60_000,
        intervalMs: 5,
        what: `the projector to start projecting\n${projector.output()}`,
      });
      const busy = (await applied()) < last.prepare;
      const stopped = Date.now();
      projector.kill('SIGTERM');
      const code = await exited(projector);
      const ms = Date.now() - stopped;

      // Exit code 0 and `closed` are the proof it closed within its deadline (past it, the process says so and
      // exits 1, as the next test shows); the milliseconds are only told: on a busy machine the signal's delivery
      // and the process's exit add to them.
      expect(code, projector.output()).toBe(0);
      const lines = logLines(projector.output());
      expect(lines.some((line) => String(line.msg).startsWith('closing did not finish'))).toBe(false);
      expect(lines.find((line) => line.msg === 'shutting down')).toMatchObject({
        process: 'kesher-projector',
        reason: 'SIGTERM',
        deadlineMs: 10_000,
      });
      expect(lines.find((line) => line.msg === 'closed')).toMatchObject({ process: 'kesher-projector' });
      // Told, not asserted: a fast machine may have finished the 300 before the signal.
      console.log(`projector stopped ${busy ? 'mid-projection' : 'after projecting'} in ${ms} ms`);
    });

    it('exits 1 at its deadline when closing hangs', { timeout: 180_000 }, async () => {
      const projector = await startProjector(1_500);
      // The read model's table locked in an open transaction: the projector's next batch waits on it, and
      // stopping waits for that batch. SHARE mode, since it takes no transaction id: an ACCESS EXCLUSIVE
      // lock would, and the log's read horizon would then hide the append from the projector.
      const locker = new pg.Client({ connectionString: db.url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE assistants IN SHARE MODE');
        await append(1);
        await waitUntil(
          async () =>
            (
              await locker.query(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'kesher-projector%' AND wait_event_type = 'Lock' AND datname = current_database()`,
              )
            ).rows[0].n > 0,
          { timeoutMs: 60_000, what: `the projector's batch to wait on the lock\n${projector.output()}` },
        );
        const stopped = Date.now();
        projector.kill('SIGTERM');
        const code = await exited(projector);
        const ms = Date.now() - stopped;

        expect(code, projector.output()).toBe(1);
        expect(ms).toBeGreaterThanOrEqual(1_400);
        expect(logLines(projector.output()).find((line) => line.level === 50)).toMatchObject({
          process: 'kesher-projector',
          msg: 'closing did not finish within 1500 ms; exiting anyway',
        });
      } finally {
        await locker.query('ROLLBACK').catch(() => {});
        await locker.end();
        if (projector.exitCode === null) projector.kill('SIGKILL');
      }
    });
  },
);
