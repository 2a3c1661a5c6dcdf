import type { MessageRow, RunRow, ThreadQueries } from '@kesher/projections/threads/threads.queries';
import { describe, expect, it } from 'vitest';
import { createRunStreamHub } from '../run-stream-hub.js';
import { followRunEvents, type FollowedRun, type RunStreamMessage } from './run-events.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const deadlineAt = new Date(NOW.getTime() + 60_000);
const queued: RunRow = { id: 'run_1', thread_id: 'thread_1', assistant_id: 'a', status: 'queued', error: null, message_id: null, deadline_at: deadlineAt, created_at: 0, settled_at: null };
const answer: MessageRow = { id: 'msg_2', thread_id: 'thread_1', role: 'assistant', text: 'Open at 7.', run_id: 'run_1', sources: [], created_at: 1 };

/** A read model the test moves by hand; it counts the reads of the run. */
function readModel(initial: RunRow | undefined) {
  const state = { run: initial, reads: 0 };
  const threads = {
    run: async () => {
      state.reads++;
      return state.run;
    },
    message: async () => answer,
  } as unknown as ThreadQueries;
  return { state, threads };
}

async function collect(events: AsyncGenerator<RunStreamMessage>, each?: (message: RunStreamMessage) => void) {
  const out: RunStreamMessage[] = [];
  for await (const message of events) {
    out.push(message);
    each?.(message);
  }
  return out;
}

const follow = (deps: { threads: ThreadQueries; hub?: ReturnType<typeof createRunStreamHub> }, run: { first?: RunRow; signal?: AbortSignal; onOutcome?: FollowedRun['onOutcome'] }) =>
  followRunEvents(
    { threads: deps.threads, reader: { ownerId: 'o' }, clock: () => NOW, runStreams: deps.hub },
    { assistant: { external_id: 'asst_x' }, threadId: 'thread_1', runId: 'run_1', deadlineAt, mark: undefined, afterSeq: 0, signal: run.signal ?? new AbortController().signal, ...run },
  );

describe('following a run', () => {
  it('streams the pieces without reading the run for them, then reads it once when the worker ends', async () => {
    const hub = createRunStreamHub();
    const { state, threads } = readModel(queued);
    const events = collect(follow({ threads, hub }, { first: queued }), (message) => {
      if (message.event === 'delta' && message.id === 1) hub.append('run_1', 'at 7.');
      if (message.event === 'delta' && message.id === 2) {
        state.run = { ...queued, status: 'completed', message_id: 'msg_2' };
        hub.end('run_1');
      }
    });
    hub.append('run_1', 'Open ');
    expect(await events).toEqual([
      { event: 'delta', id: 1, data: { text: 'Open ' } },
      { event: 'delta', id: 2, data: { text: 'at 7.' } },
      { event: 'completed', data: { run_id: 'run_1', message: expect.objectContaining({ id: 'msg_2', content: [{ type: 'text', text: { value: 'Open at 7.', annotations: [] } }] }) } },
    ]);
    expect(state.reads).toBe(1);
  });

  it('follows a run requested a moment ago without reading it first, and waits for the read model to show its end', async () => {
    const hub = createRunStreamHub();
    const { state, threads } = readModel(undefined);
    hub.append('run_1', 'Open at 7.');
    hub.end('run_1');
    // The worker is done, but the projector has not applied the run yet: the stream must not give up.
    setTimeout(() => (state.run = { ...queued, status: 'failed', error: 'The model said no.' }), 120);
    expect(await collect(follow({ threads, hub }, {}))).toEqual([
      { event: 'delta', id: 1, data: { text: 'Open at 7.' } },
      { event: 'failed', data: { run_id: 'run_1', message: 'The model said no.' } },
    ]);
    expect(state.reads).toBeGreaterThanOrEqual(2);
  });

  it('ends without a final event when the run it had read is gone (its thread was deleted): the client polls and learns why', async () => {
    const hub = createRunStreamHub();
    const { state, threads } = readModel(queued);
    state.run = undefined;
    hub.end('run_1');
    expect(await collect(follow({ threads, hub }, { first: queued }))).toEqual([]);
  });

  it('stops at once when the client leaves', async () => {
    const hub = createRunStreamHub();
    const { threads } = readModel(queued);
    const leave = new AbortController();
    const events = collect(follow({ threads, hub }, { first: queued, signal: leave.signal }));
    setTimeout(() => leave.abort(), 20);
    const started = Date.now();
    expect(await events).toEqual([]);
    expect(Date.now() - started).toBeLessThan(500);
  });

  const position = { commit: '42', prepare: '420' };

  it("ends with the worker's recorded answer without reading the read model, and says where it was recorded", async () => {
    const hub = createRunStreamHub();
    const { state, threads } = readModel(undefined);
    const noted: unknown[] = [];
    hub.append('run_1', 'Open at 7.');
    const sources = [{ fileId: 'file_1', filename: 'hours.txt', sourceUrl: 'https://bakery.example/hours', section: null }];
    hub.end('run_1', { status: 'completed', message: { id: 'msg_2', text: 'Open at 7.', sources, createdAt: 1_795_000_000 }, position });
    expect(await collect(follow({ threads, hub }, { onOutcome: (at) => noted.push(at) }))).toEqual([
      { event: 'delta', id: 1, data: { text: 'Open at 7.' } },
      {
        event: 'completed',
        data: {
          run_id: 'run_1',
          message: {
            id: 'msg_2',
            object: 'thread.message',
            thread_id: 'thread_1',
            role: 'assistant',
            content: [{ type: 'text', text: { value: 'Open at 7.', annotations: [] } }],
            created_at: 1_795_000_000,
            run_id: 'run_1',
            sources: [{ file_id: 'file_1', filename: 'hours.txt', source_url: 'https://bakery.example/hours', section: null }],
          },
        },
      },
    ]);
    expect(state.reads).toBe(0);
    expect(noted).toEqual([{ commit: 42n, prepare: 420n }]);
  });

  it("ends a failed or expired run with the same words as the read model's run", async () => {
    const failedHub = createRunStreamHub();
    failedHub.end('run_1', { status: 'failed', error: 'The model said no.', position });
    expect(await collect(follow({ threads: readModel(undefined).threads, hub: failedHub }, {}))).toEqual([{ event: 'failed', data: { run_id: 'run_1', message: 'The model said no.' } }]);
    const expiredHub = createRunStreamHub();
    expiredHub.end('run_1', { status: 'expired', position });
    expect(await collect(follow({ threads: readModel(undefined).threads, hub: expiredHub }, {}))).toEqual([
      { event: 'expired', data: { run_id: 'run_1', message: 'Assistant response timed out. Please try again.' } },
    ]);
  });
});
