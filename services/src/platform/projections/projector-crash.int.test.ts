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
import { assistantCreatedEvent } from '../../testing/platform-fixture.js';

const gate = await postgresAvailability();
const ASSISTANTS = 1500;
const UPDATES_EACH = 5;

function meta(i: number) {
  return {
    eventId: randomUUID(),
    correlationId: 'seed',
    causationId: 'seed',
    actor: { kind: 'system' as const, id: 'seed' },
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    schemaVersion: 1,
  };
}

async function seed(store: EventStore) {
  for (let a = 0; a < ASSISTANTS; a++) {
    const assistantId = `a${a}`;
    const events: NewEvent[] = [
      assistantCreatedEvent(a, { assistantId, ownerId: `owner${a % 7}`, metadata: meta(a) }),
      ...Array.from({ length: UPDATES_EACH }, (_, u) => ({
        type: 'AssistantUpdated',
        data: { assistantId, changes: { chat_limit: 100 + u, name: `Assistant ${a} v${u}` } },
        metadata: meta(a + u + 1),
      })),
    ];
    if (a % 3 === 0) events.push({ type: 'AssistantDeleted', data: { assistantId }, metadata: meta(a + 9) });
    await store.appendToStream(streamIds.assistant(assistantId), events, { expectedRevision: 'no_stream' });
  }
}

const checksum = async (sql: Sql) =>
  (
    await sql.query<{ sum: string; n: number }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) AS sum, count(*)::int AS n FROM assistants t`,
    )
  ).rows[0]!;

describe.skipIf(!gate.available)(
  `projector killed with SIGKILL in the middle of a rebuild${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url, max: 4 });
      store = await createSqlEventStore({ sql });
      await seed(store);
    });
    afterAll(async () => {
      await store?.close();
      await sql?.close();
      await db?.drop();
    });

    // Its waits (60 s for the rebuild to be partway, 90 s for the restarted projector) need more than the one-minute default.
    it(
      'resumes after the crash and ends with the same read model as a clean rebuild',
      { timeout: 300_000 },
      async () => {
        // Small batches (replay and projector alike), so the kill lands between committed batches.
        const env = { DATABASE_URL: db.url, PROJECTOR_BATCH_SIZE: '40', REPLAY_BATCH_SIZE: '40', METRICS_PORT: '0' };
        const head = await store.headPosition();

        // The replay command rebuilds from zero; kill it once it is partway through.
        const replay = startMain('replay', env, ['assistants']);
        const partial = await waitUntil(
          async () => {
            const checkpoint = await readCheckpoint(sql, 'assistants').catch(() => undefined);
            return checkpoint && checkpoint.position.prepare > 0n && checkpoint.position.prepare < head.prepare / 2n
              ? checkpoint
              : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 5, what: 'the rebuild to be partway' },
        );
        replay.kill('SIGKILL');
        await exited(replay);
        const afterKill = await readCheckpoint(sql, 'assistants');
        expect(afterKill!.position.prepare).toBeLessThan(head.prepare);
        expect(afterKill!.position.prepare).toBeGreaterThanOrEqual(partial!.position.prepare);

        // The projector picks up from the last committed batch.
        const projector = startMain('projector', env);
        await waitUntil(
          async () => ((await readCheckpoint(sql, 'assistants'))?.position.prepare ?? 0n) >= head.prepare,
          {
            timeoutMs: 90_000,
            what: `the projector to catch up\n${projector.output()}`,
          },
        );
        projector.kill('SIGTERM');
        await exited(projector);
        const resumed = await checksum(sql);
        expect(resumed.n).toBe(ASSISTANTS - Math.ceil(ASSISTANTS / 3));

        // A clean rebuild from zero, uninterrupted.
        const clean = startMain('replay', { ...env, PROJECTOR_BATCH_SIZE: '1000', REPLAY_BATCH_SIZE: '1000' }, [
          'assistants',
        ]);
        expect(await exited(clean)).toBe(0);
        expect(await checksum(sql)).toEqual(resumed);
      },
    );
  },
);
