import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { isThreadGoneOnSend, sendMessageAndRun } from './run-calls';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const run = {
  id: 'run_1',
  run_id: 'run_1',
  object: 'thread.run',
  thread_id: 'thread_1',
  status: 'queued',
  last_error: null,
  message_id: null,
};
const userMessage = {
  id: 'msg_u',
  object: 'thread.message',
  thread_id: 'thread_1',
  role: 'user',
  content: [{ type: 'text', text: { value: 'Open today?', annotations: [] } }],
  created_at: 1_700_000_000,
  run_id: null,
  sources: [],
};

function answer(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('sendMessageAndRun: the message and its run in one call', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("posts the visitor's message as additional_messages with the session token, and reads the run and the stored message", async () => {
    const fetchMock = answer(json({ ...run, user_message: userMessage }, 201));
    const sent = await sendMessageAndRun(
      { kind: 'visitor', sessionToken: 'b'.repeat(64) },
      'thread_1',
      'asst_x',
      'Open today?',
    );
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/api/v1/threads/public/thread_1/runs');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      assistant_id: 'asst_x',
      additional_messages: [{ role: 'user', content: 'Open today?' }],
      session_token: 'b'.repeat(64),
    });
    expect(sent.run).toEqual({ id: 'run_1', status: 'queued', error: null, messageId: null });
    expect(sent.posted).toMatchObject({ id: 'msg_u', role: 'user', text: 'Open today?', timestamp: 1_700_000_000_000 });
  });

  it('stands a local message in when the answer lacks user_message, so the chat still shows what was sent', async () => {
    answer(json(run, 201));
    const sent = await sendMessageAndRun({ kind: 'owner' }, 'thread_1', 'asst_x', 'Open today?');
    expect(sent.run.id).toBe('run_1');
    expect(sent.posted).toMatchObject({ role: 'user', text: 'Open today?', runId: null, sources: [] });
    expect(sent.posted.id).not.toBe('');
  });

  it('throws the refusal as an ApiError with its status and words', async () => {
    answer(json({ detail: 'The assistant is still answering the previous message. Please wait for the answer.' }, 409));
    await expect(sendMessageAndRun({ kind: 'owner' }, 'thread_1', 'asst_x', 'Again?')).rejects.toMatchObject({
      status: 409,
    });
  });
});

describe('isThreadGoneOnSend', () => {
  it('is the thread that is gone, not the assistant the run names', () => {
    expect(isThreadGoneOnSend(new ApiError('notFound', 404, 'THREAD_NOT_FOUND'))).toBe(true);
    expect(isThreadGoneOnSend(new ApiError('unexpected', 400, 'THREAD_INVALID'))).toBe(true);
    expect(isThreadGoneOnSend(new ApiError('notFound', 404))).toBe(true);
    expect(
      isThreadGoneOnSend(
        new ApiError('notFound', 404, 'Assistant not found. Please check if the assistant still exists.'),
      ),
    ).toBe(false);
    expect(isThreadGoneOnSend(new ApiError('unexpected', 400, 'Invalid assistant ID'))).toBe(false);
    expect(isThreadGoneOnSend(new ApiError('forbidden', 403, 'THREAD_NOT_FOUND'))).toBe(false);
    expect(isThreadGoneOnSend(new Error('THREAD_NOT_FOUND'))).toBe(false);
  });
});
