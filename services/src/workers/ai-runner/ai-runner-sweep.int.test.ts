import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlRunOutput, type SqlRunOutput } from '../../chat/run-output/sql.run-output.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createTestPglite } from '../../testing/test-database.js';
import { createAiRunner, type AiRunnerDeps } from './ai-runner.worker.js';

/** The sweep that expires overdue runs also deletes run output past its retention, by the runner's clock. */
describe("the ai-runner's sweep", () => {
  let sql: Sql;
  let now = new Date('2026-11-27T10:00:00Z');
  let output: SqlRunOutput;
  beforeAll(async () => {
    sql = await createTestPglite();
    output = createSqlRunOutput({ sql, clock: () => now });
  });
  afterAll(async () => {
    await output?.close();
    await sql?.close();
  });

  const lines = async () =>
    (await sql.query<{ run_id: string }>(`SELECT DISTINCT run_id FROM run_output ORDER BY run_id`)).rows.map(
      (row) => row.run_id,
    );

  it('deletes the output of runs written more than an hour before, and keeps the rest', async () => {
    output.append('run_a_old', 'Open at 7.');
    await output.end('run_a_old', { status: 'expired' });
    now = new Date('2026-11-27T10:30:00Z');
    output.append('run_b_recent', 'Open at 8.');
    await output.end('run_b_recent', { status: 'expired' });
    // Only what the sweep touches: no run is overdue, so it decides nothing and appends nothing.
    const unused = undefined as never;
    const runner = createAiRunner({
      bus: unused,
      eventStore: unused,
      handle: unused,
      provider: unused,
      findAssistant: unused,
      retrieve: unused,
      overdueRuns: async () => [],
      output,
      clock: () => now,
    } satisfies AiRunnerDeps);

    now = new Date('2026-11-27T10:59:00Z');
    await runner.sweep();
    expect(await lines()).toEqual(['run_a_old', 'run_b_recent']);

    now = new Date('2026-11-27T11:00:01Z');
    await runner.sweep();
    expect(await lines()).toEqual(['run_b_recent']);
  });
});
