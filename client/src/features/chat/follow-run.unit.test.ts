import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import type { ChatRun } from '@/lib/chat-core/chat-messages';
import { chatPollDelays, networkRetryDelay } from './chat-rules';
import { followRun, pollRun } from './follow-run';
import { tokenStorage } from '@/lib/token-storage';
import { json, serverRun, sseBody, stubFetch } from './test/fake-server';

const run = (status: ChatRun['status'], extra: Partial<ChatRun> = {}): ChatRun => ({
  id: 'run_1',
  status,
  error: null,
  messageId: null,
  ...extra,
});

/** A poll whose waits are recorded instead of slept, answering from a script of outcomes. */
function scripted(answers: (ChatRun | Error)[]) {
  const waits: number[] = [];
  let i = 0;
  return {
    waits,
    deps: {
      sleep: async (ms: number) => void waits.push(ms),
      check: async () => {
        const next = answers[Math.min(i++, answers.length - 1)]!;
        if (next instanceof Error) throw next;
        return next;
      },
    },
  };
}

describe('pollRun', () => {
  it('follows the schedule until the run completes', async () => {
    const { waits, deps } = scripted([
      ...Array.from({ length: 7 }, () => run('in_progress')),
      run('completed', { messageId: 'msg_9' }),
    ]);
    const outcome = await pollRun(deps, new AbortController().signal);
    expect(outcome).toEqual({ kind: 'completed', messageId: 'msg_9', message: null });
    expect(waits).toEqual(chatPollDelays().slice(0, 8));
  });

  it('gives up after 100 checks', async () => {
    const { waits, deps } = scripted([run('queued')]);
    expect(await pollRun(deps, new AbortController().signal)).toEqual({ kind: 'timeout' });
    expect(waits).toHaveLength(100);
  });

  it('backs off on network errors within the same cap, then returns to the normal schedule', async () => {
    const network = new ApiError('network', null);
    const { waits, deps } = scripted([
      run('in_progress'),
      ...Array.from({ length: 6 }, () => network),
      run('in_progress'),
      run('failed', { error: 'boom' }),
    ]);
    const outcome = await pollRun(deps, new AbortController().signal);
    expect(outcome).toEqual({ kind: 'failed', error: 'boom' });
    expect(waits).toEqual([
      300,
      300,
      ...Array.from({ length: 5 }, (_, i) => networkRetryDelay(i)),
      networkRetryDelay(5),
      300,
    ]);
  });

  it('reports other errors to the caller and expired runs as such', async () => {
    await expect(
      pollRun(scripted([new ApiError('notFound', 404, 'Run not found.')]).deps, new AbortController().signal),
    ).rejects.toThrow('Run not found.');
    expect(await pollRun(scripted([run('expired')]).deps, new AbortController().signal)).toEqual({ kind: 'expired' });
  });

  it('tells the caller about requires_action while waiting', async () => {
    const onStatus = vi.fn();
    await pollRun(
      { ...scripted([run('requires_action'), run('completed')]).deps, onStatus },
      new AbortController().signal,
    );
    expect(onStatus.mock.calls.map(([r]) => (r as ChatRun).status)).toEqual(['requires_action', 'completed']);
  });
});

describe('followRun', () => {
  it('polls when the stream is unavailable', async () => {
    const { calls } = stubFetch({
      'GET /api/v1/threads/thread_1/runs/run_1/stream': () => new Response('nope', { status: 503 }),
      'GET /api/v1/threads/thread_1/runs/run_1': () => json(serverRun('completed', { message_id: 'msg_2' })),
    });
    const outcome = await followRun(
      { kind: 'owner' },
      'thread_1',
      { id: 'run_1' },
      { onDelta: vi.fn(), onStatus: vi.fn() },
      new AbortController().signal,
    );
    expect(outcome).toEqual({ kind: 'completed', messageId: 'msg_2', message: null });
    expect(calls.map((c) => c.key)).toEqual([
      'GET /api/v1/threads/thread_1/runs/run_1/stream',
      'GET /api/v1/threads/thread_1/runs/run_1',
    ]);
    vi.unstubAllGlobals();
  });

  it("opens the owner's fresh run with its grant instead of the bearer token; polling keeps the token", async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    const stream = sseBody();
    const { fetchMock } = stubFetch({
      'GET /api/v1/threads/thread_1/runs/run_1/stream': ({ signal }) => {
        queueMicrotask(() => {
          stream.send('delta', { text: 'Open ' });
          stream.send('completed', { run_id: 'run_1', message: null });
        });
        return stream.response(signal);
      },
    });
    const deltas: string[] = [];
    const outcome = await followRun(
      { kind: 'owner' },
      'thread_1',
      { id: 'run_1', streamGrant: 'lz3.grant' },
      { onDelta: (text) => deltas.push(text), onStatus: vi.fn() },
      new AbortController().signal,
    );
    expect(outcome).toEqual({ kind: 'completed', messageId: null, message: null });
    expect(deltas).toEqual(['Open ']);
    const headers = new Headers(fetchMock.mock.calls[0]![1]?.headers);
    expect(headers.get('x-run-grant')).toBe('lz3.grant');
    expect(headers.has('authorization')).toBe(false);
    vi.unstubAllGlobals();
    tokenStorage.clear();
  });
});
