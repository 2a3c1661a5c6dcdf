import { randomUUID } from 'node:crypto';
import { streamIds, type NewEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { exited, startMain, waitUntil } from '../../testing/processes.js';
import { readCheckpoint } from './checkpoints.js';

const gate = await postgresAvailability();

const created = (n: number): NewEvent => ({
  type: 'AssistantCreated',
  data: {
    assistantId: `s${n}`,
    numericId: n + 1,
    externalId: `asst_${String(n).padStart(24, '0')}`,
    ownerId: 'owner',
    profile: {
      name: `Assistant ${n}`,
      description: 'd',
      instructions: 'i',
      chat_limit: 100,
      website_url: null,
      avatar_url: null,
      web_crawler: { enabled: false, website_url: null, max_pages: 2000, max_depth: 10, delete_orphaned_pages: false },
      payment_processing: { enabled: false, sales_prompt: '' },
    },
  },
  metadata: { eventId: randomUUID(), correlationId: 'c', causationId: 'c', actor: { kind: 'system', id: 't' }, timestamp: new Date().toISOString(), schemaVersion: 1 },
});

/**
 * The projector process while Postgres ends its sessions as it starts (its read models' first checkpoint
 * loads): it must come up and project, not exit 1 as it did when a first load was not tried again.
 */
describe.skipIf(!gate.available)(`projector whose sessions end while it starts${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
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
    const first = await store.appendToStream(streamIds.assistant('s0'), [created(0)], { expectedRevision: 'no_stream' });
    const projector = startMain('projector', { DATABASE_URL: db.url, METRICS_PORT: '0' });
    let ended = 0;
    try {
      // Ended: every projector session caught inside a read model's checkpoint load (its transaction open
      // after reading the checkpoint). The schema migrations before it are not this test's subject.
      await waitUntil(
        async () => {
          if (projector.output().includes('projector running') || projector.exitCode !== null) return true;
          const { rows } = await sql.query<{ n: number }>(
            `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
             WHERE application_name LIKE 'kesher-projector%' AND datname = current_database() AND state = 'idle in transaction'
               AND query LIKE '%FROM projection_checkpoints WHERE%'`,
          );
          ended += rows[0]!.n;
          return false;
        },
        { timeoutMs: 120_000, intervalMs: 5, what: 'the projector to start or exit' },
      );
      expect(projector.exitCode, projector.output()).toBeNull();
      expect(ended).toBeGreaterThan(0);
      const last = await store.appendToStream(streamIds.assistant('s1'), [created(1)], { expectedRevision: 'no_stream' });
      await waitUntil(async () => ((await readCheckpoint(sql, 'assistants'))?.position.prepare ?? -1n) >= last.position.prepare, { timeoutMs: 60_000, what: `the projector to project\n${projector.output()}` });
      expect(first.position.prepare).toBeLessThan(last.position.prepare);
      expect((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM assistants`)).rows[0]!.n).toBe(2);
    } finally {
      projector.kill('SIGTERM');
      await exited(projector);
    }
  });
});
