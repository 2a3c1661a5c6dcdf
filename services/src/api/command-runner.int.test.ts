import { randomUUID } from 'node:crypto';
import { streamIds, type RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandHandler } from '../platform/commands/command-handler.js';
import { createSqlEventStore } from '../platform/event-store/sql-event-store.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import { createProjectionRunner } from '../platform/projections/projection-runner.js';
import { readModelWaiter } from '../platform/projections/read-model-progress.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { createTestPglite } from '../testing/test-database.js';
import { limitViolationDecider } from '../analytics/limit-violations.js';
import { CONSISTENCY_HEADER, consistencyPlugin, createCommandRunner } from './command-runner.js';

/** Any real command will do: a limit refusal's record, on a stream of its own per request. */
const refusal = (n: number) => ({
  type: 'RecordLimitViolation' as const,
  data: {
    violationId: randomUUID(),
    ownerId: randomUUID(),
    kind: 'assistants' as const,
    limit: n,
    used: n,
    requested: null,
    assistantId: null,
    refused: 'owner' as const,
  },
});

/** A read model that applies nothing while `held`: the projector is behind, for real. */
let release: () => void = () => {};
let held: Promise<void> = Promise.resolve();
const notedModel: Projection = {
  name: 'noted_runner',
  version: 1,
  eventTypes: ['LimitViolated'],
  tables: ['noted_runner'],
  migrations: [{ id: '001', sql: `CREATE TABLE IF NOT EXISTS noted_runner (n int PRIMARY KEY)` }],
  async apply(db, events: readonly RecordedEvent[]) {
    await held;
    for (const e of events)
      await db.query(`INSERT INTO noted_runner (n) VALUES ($1)`, [(e.data as { limit: number }).limit]);
  },
};

/**
 * A write whose read-your-writes wait runs out is not answered as if it were visible: the answer says
 * `Kesher-Consistency: pending`, the result says `readModelsCurrent: false`, and the metric counts it.
 */
describe('command runner when the read models are behind', () => {
  let sql: Sql;
  let store: EventStore;
  let runner: ReturnType<typeof createProjectionRunner>;
  let app: FastifyInstance;
  const registry = new Registry();
  const logged: string[] = [];

  beforeAll(async () => {
    sql = await createTestPglite();
    store = await createSqlEventStore({ sql });
    runner = createProjectionRunner({ eventStore: store, sql, projections: [notedModel] });
    await runner.start();
    const run = createCommandRunner({
      handle: createCommandHandler({ eventStore: store }),
      awaitReadModels: readModelWaiter({ readModels: runner.progress, projections: [notedModel], timeoutMs: 200 }),
      clock: () => new Date(),
    });
    app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } } });
    await app.register(consistencyPlugin, { registry });
    app.post<{ Body: { n: number } }>('/notes', async (request) => {
      const command = refusal(request.body.n);
      const result = await run(
        request,
        limitViolationDecider,
        streamIds.limitViolation(command.data.violationId),
        command,
      );
      return { readModelsCurrent: result.readModelsCurrent };
    });
  });
  afterAll(async () => {
    await app?.close();
    await runner?.stop();
    await store?.close();
    await sql?.close();
  });

  it('answers pending when the wait runs out, and plainly once the read models keep up', async () => {
    held = new Promise((resolve) => (release = resolve));
    const behind = await app.inject({ method: 'POST', url: '/notes', payload: { n: 1 } });
    expect(behind.statusCode).toBe(200);
    expect(behind.json()).toEqual({ readModelsCurrent: false });
    expect(behind.headers[CONSISTENCY_HEADER]).toBe('pending');
    expect(String(behind.headers['access-control-expose-headers'])).toContain(CONSISTENCY_HEADER);
    const warning = logged
      .map((line) => JSON.parse(line) as { correlationId?: string; reqId?: string })
      .find((line) => line.correlationId);
    expect(warning?.correlationId).toBe(warning?.reqId);
    expect(
      (await registry.getSingleMetricAsString('kesher_read_your_writes_pending_total')).trim().split('\n').at(-1),
    ).toMatch(/ 1$/);

    release();
    const current = await app.inject({ method: 'POST', url: '/notes', payload: { n: 2 } });
    expect(current.json()).toEqual({ readModelsCurrent: true });
    expect(current.headers[CONSISTENCY_HEADER]).toBeUndefined();
    expect((await sql.query<{ n: number }>(`SELECT n FROM noted_runner ORDER BY n`)).rows.map((r) => r.n)).toEqual([
      1, 2,
    ]);
  });
});
