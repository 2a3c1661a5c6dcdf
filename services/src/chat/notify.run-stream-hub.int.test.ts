import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../platform/sql/pg.sql.js';
import { createTestDatabase, postgresAvailability } from '../testing/test-database.js';
import { createNotifyRunStreamHub, type NotifyRunStreamHub } from './notify.run-stream-hub.js';
import { runStreamHubContract } from './testing/run-stream-hub.contract.js';
import type { RunStreamEvent } from './run-stream-hub.js';

const gate = await postgresAvailability();

/** Two pools on one database stand for two processes: the worker's and the API's. */
async function twoProcesses() {
  const db = await createTestDatabase('kesher_notify');
  const workerSql = createPgSql({ connectionString: db.url, applicationName: 'kesher-workers' });
  const apiSql = createPgSql({ connectionString: db.url, applicationName: 'kesher-api' });
  const producer = createNotifyRunStreamHub({ sql: workerSql });
  const follower = createNotifyRunStreamHub({ sql: apiSql });
  await follower.listen();
  return {
    db,
    apiSql,
    producer,
    follower,
    async teardown() {
      await producer.close();
      await follower.close();
      await workerSql.close();
      await apiSql.close();
      await db.drop();
    },
  };
}

runStreamHubContract(
  'Postgres LISTEN/NOTIFY',
  async () => {
    const parts = await twoProcesses();
    return { producer: parts.producer, follower: parts.follower, settle: () => parts.producer.flushed(), teardown: parts.teardown };
  },
  gate,
);

describe.skipIf(!gate.available)('RunStreamHub over LISTEN/NOTIFY: what only this adapter can get wrong', () => {
  let parts: Awaited<ReturnType<typeof twoProcesses>>;
  beforeAll(async () => {
    parts = await twoProcesses();
  });
  afterAll(async () => parts?.teardown());

  const follow = (hub: NotifyRunStreamHub, runId: string) => {
    const events: RunStreamEvent[] = [];
    hub.follow(runId, 0, (e) => events.push(e));
    return events;
  };

  it('ends without the outcome when it is too long for a notification (the stream then ends with the stored answer)', async () => {
    const events = follow(parts.follower, 'run_long_outcome');
    const text = 'מאפה '.repeat(2000);
    parts.producer.append('run_long_outcome', text);
    parts.producer.end('run_long_outcome', { status: 'completed', message: { id: 'msg_long', text, sources: [], createdAt: 1 }, position: { commit: '1', prepare: '1' } });
    await parts.producer.flushed();
    await expect.poll(() => events.at(-1)?.kind, { timeout: 10_000, interval: 10 }).toBe('end');
    expect(events.at(-1)).toEqual({ kind: 'end' });
    expect(events.flatMap((e) => (e.kind === 'delta' ? [e.text] : [])).join('')).toBe(text);
  });

  it('shows no pieces of a run it began hearing in the middle, only its end (the stored answer is complete)', async () => {
    parts.producer.append('run_midway', 'The beginning, ');
    await parts.producer.flushed();
    const lateApi = createNotifyRunStreamHub({ sql: parts.apiSql });
    await lateApi.listen();
    try {
      const events = follow(lateApi, 'run_midway');
      parts.producer.append('run_midway', 'and the rest.');
      parts.producer.end('run_midway');
      await expect.poll(() => events.at(-1)?.kind, { timeout: 10_000, interval: 10 }).toBe('end');
      expect(events).toEqual([{ kind: 'end' }]);
    } finally {
      await lateApi.close();
    }
  });

  it('listens again after its connection is cut, and streams the next runs', async () => {
    const { rows } = await parts.apiSql.query<{ cut: boolean }>(
      `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'kesher-api-listen'`,
    );
    expect(rows).toEqual([{ cut: true }]);
    let attempt = 0;
    await expect
      .poll(
        async () => {
          const runId = `run_after_cut_${++attempt}`;
          const events = follow(parts.follower, runId);
          parts.producer.append(runId, 'back');
          parts.producer.end(runId);
          await parts.producer.flushed();
          // Once someone listens, a sent notification arrives within milliseconds; until then it is lost.
          await expect.poll(() => events.length, { timeout: 1000, interval: 5 }).toBe(2).catch(() => {});
          return events;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toEqual([{ kind: 'delta', seq: 1, text: 'back' }, { kind: 'end' }]);
  });
});
