import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createTestPglite } from '../../testing/test-database.js';
import type { RunOutcome } from '../run-output/run-output.port.js';
import { createSqlRunOutput, type SqlRunOutput } from '../run-output/sql.run-output.js';
import { followRunEvents, type FollowedRun, type RunStreamMessage } from './run-events.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const deadlineAt = new Date(NOW.getTime() + 60_000);

async function collect(events: AsyncGenerator<RunStreamMessage>) {
  const out: RunStreamMessage[] = [];
  for await (const message of events) out.push(message);
  return out;
}

/** The SSE messages of a run's output, on the embedded database (the adapter itself is tested on both in run-output/). */
describe('following a run', () => {
  let sql: Sql;
  let output: SqlRunOutput;
  let runs = 0;
  beforeAll(async () => {
    sql = await createTestPglite();
    output = createSqlRunOutput({ sql, clock: () => NOW, tickMs: 20 });
  });
  afterAll(async () => {
    await output?.close();
    await sql?.close();
  });

  const follow = (run: Partial<FollowedRun> & { runId: string }) =>
    followRunEvents(
      { output, clock: () => NOW },
      {
        threadId: 'thread_1',
        deadlineAt,
        afterSeq: 0,
        signal: new AbortController().signal,
        recordedOutcome: async () => undefined,
        ...run,
      },
    );

  it('says each burst as a delta whose id is its number, then the answer as the chat shows it', async () => {
    const runId = `run_${++runs}`;
    output.append(runId, 'Open ');
    await output.flushed();
    output.append(runId, 'at 7.');
    const sources = [
      { fileId: 'file_1', filename: 'hours.txt', sourceUrl: 'https://bakery.example/hours', section: null },
    ];
    await output.end(runId, {
      status: 'completed',
      message: { id: 'msg_2', text: 'Open at 7.', sources, createdAt: 1_795_000_000 },
    });
    const said = await collect(follow({ runId }));
    expect(said).toEqual([
      { event: 'delta', id: 1, data: { text: 'Open ' } },
      { event: 'delta', id: 2, data: { text: 'at 7.' } },
      {
        event: 'completed',
        data: {
          run_id: runId,
          message: {
            id: 'msg_2',
            object: 'thread.message',
            thread_id: 'thread_1',
            role: 'assistant',
            content: [{ type: 'text', text: { value: 'Open at 7.', annotations: [] } }],
            created_at: 1_795_000_000,
            run_id: runId,
            sources: [
              { file_id: 'file_1', filename: 'hours.txt', source_url: 'https://bakery.example/hours', section: null },
            ],
          },
        },
      },
    ]);
    // Last-Event-ID: 1 resumes with the second burst.
    expect(await collect(follow({ runId, afterSeq: 1 }))).toEqual(said.slice(1));
  });

  it("ends a failed or expired run with the same words as the read model's run", async () => {
    const failed = `run_${++runs}`;
    await output.end(failed, { status: 'failed', error: 'The model said no.' });
    expect(await collect(follow({ runId: failed }))).toEqual([
      { event: 'failed', data: { run_id: failed, message: 'The model said no.' } },
    ]);
    const expired = `run_${++runs}`;
    await output.end(expired, { status: 'expired' });
    expect(await collect(follow({ runId: expired }))).toEqual([
      { event: 'expired', data: { run_id: expired, message: 'Assistant response timed out. Please try again.' } },
    ]);
  });

  it("ends with the thread's recorded outcome when the worker wrote no end row", async () => {
    const runId = `run_${++runs}`;
    output.append(runId, 'Half');
    await output.end(runId, undefined);
    let asked = 0;
    const recordedOutcome = async (): Promise<RunOutcome | undefined> =>
      ++asked > 1 ? { status: 'failed', error: 'The model said no.' } : undefined;
    expect(await collect(follow({ runId, recordedOutcome }))).toEqual([
      { event: 'delta', id: 1, data: { text: 'Half' } },
      { event: 'failed', data: { run_id: runId, message: 'The model said no.' } },
    ]);
  });

  it('ends without a final event when the client leaves', async () => {
    const runId = `run_${++runs}`;
    const leave = new AbortController();
    const events = follow({ runId, signal: leave.signal });
    output.append(runId, 'Open');
    expect((await events.next()).value).toEqual({ event: 'delta', id: 1, data: { text: 'Open' } });
    const rest = collect(events);
    leave.abort();
    expect(await rest).toEqual([]);
    await output.end(runId, undefined);
  });
});
