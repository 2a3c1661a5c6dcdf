import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import type { ChatConnection } from '../hooks/use-chat';
import { json, serverMessage, serverRun, sseBody, stubFetch } from '../test/fake-server';
import { ChatScreen } from './chat-screen';

const assistant = {
  id: 7,
  name: 'Bakery helper',
  description: 'Questions about bread',
  externalId: `asst_${'a'.repeat(24)}`,
};

function owner(threadId = 'thread_1'): ChatConnection & { startThread: ReturnType<typeof vi.fn> } {
  return {
    access: { kind: 'owner' },
    startThread: vi.fn(async () => ({ threadId, access: { kind: 'owner' as const } })),
  };
}

function renderChat(
  props: { threadId?: string; connection?: ChatConnection; onThreadChange?: (id: string | undefined) => void },
  language: 'en' | 'he' = 'en',
) {
  const onThreadChange = props.onThreadChange ?? vi.fn();
  const utils = renderWithProviders(
    <ChatScreen
      assistant={assistant}
      threadId={props.threadId}
      connection={props.connection ?? owner()}
      onThreadChange={onThreadChange}
      onBack={vi.fn()}
      allowNewChat
    />,
    { language },
  );
  return { ...utils, onThreadChange };
}

/** POST …/runs with the message (additional_messages): the run, and the stored message as `user_message`. */
const runWithMessage = (text: string) =>
  json(serverRun('queued', { user_message: serverMessage('msg_u', 'user', text) }), 201);
const sentText = (body: unknown) =>
  (body as { additional_messages: { content: string }[] }).additional_messages[0]!.content;

const type = (text: string) => fireEvent.change(screen.getByLabelText('Message'), { target: { value: text } });
const enter = () => fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter' });

describe('ChatScreen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('shows the header and the empty state', () => {
    renderChat({});
    expect(screen.getByRole('heading', { level: 1, name: 'Bakery helper' })).toBeInTheDocument();
    expect(screen.getByText('Questions about bread')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Chat' })).toBeInTheDocument();
    expect(screen.getByText('Start a conversation')).toBeInTheDocument();
    expect(screen.getByText('Assistant is ready')).toBeInTheDocument();
  });

  it('sends: the question at once, a new thread in the address, the answer growing over SSE, then "Response ready!"', async () => {
    const stream = sseBody();
    const answer = serverMessage('msg_a', 'assistant', 'We bake at six.\n[REDIRECT: https://bakery.example/order]', [
      { file_id: 'file-1', filename: 'hours.txt', source_url: null },
    ]);
    const { calls } = stubFetch({
      'POST /api/v1/threads/thread_1/runs': ({ body }) => runWithMessage(sentText(body)),
      'GET /api/v1/threads/thread_1/runs/run_1/stream': () => stream.response(),
      'GET /api/v1/threads/thread_1/messages': () =>
        json({ object: 'list', data: [serverMessage('msg_u', 'user', 'When do you bake?'), answer] }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const connection = owner();
    const { onThreadChange } = renderChat({ connection });

    type('  When do you bake?  ');
    enter();
    expect(await screen.findByText('When do you bake?')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveValue('');
    await waitFor(() => expect(onThreadChange).toHaveBeenCalledWith('thread_1'));
    expect(connection.startThread).toHaveBeenCalledTimes(1);

    // The thinking indicator: a progress bar under the cap and the first stage.
    const bar = await screen.findByRole('progressbar', { name: 'The assistant is answering' });
    expect(Number(bar.getAttribute('value'))).toBeLessThanOrEqual(85);
    expect(screen.getByText('Analyzing your message...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/v1/threads/thread_1/runs/run_1/stream'));
    act(() => stream.send('delta', { text: 'We bake ' }));
    expect(await screen.findByText('We bake')).toBeInTheDocument();
    act(() => stream.send('delta', { text: 'at six.' }));
    expect(await screen.findByText('We bake at six.')).toBeInTheDocument();
    act(() => stream.send('completed', { run_id: 'run_1', message: answer }));

    expect(await screen.findByText('Response ready!')).toBeInTheDocument();
    const reply = (await screen.findByText('We bake at six.')).closest('li')!;
    expect(within(reply).getByRole('button', { name: 'hours.txt' })).toBeInTheDocument();
    expect(within(reply).getByRole('link', { name: /Visit Link/ })).toHaveAttribute(
      'href',
      'https://bakery.example/order',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    // The message went with the run: one call, no POST …/messages.
    expect(calls.filter((c) => c.key.startsWith('POST ')).map((c) => c.key)).toEqual([
      'POST /api/v1/threads/thread_1/runs',
    ]);
    expect(calls.find((c) => c.key === 'POST /api/v1/threads/thread_1/runs')?.body).toEqual({
      assistant_id: assistant.externalId,
      additional_messages: [{ role: 'user', content: 'When do you bake?' }],
    });
    // The answer arrived now, so its redirect opens by itself a second later.
    await waitFor(
      () => expect(open).toHaveBeenCalledWith('https://bakery.example/order', '_blank', 'noopener,noreferrer'),
      { timeout: 10_000 },
    );
  });

  it('alerts the rule for an invalid message sent with Enter and sends nothing', async () => {
    const { fetchMock } = stubFetch({});
    renderChat({});
    type(Array.from({ length: 101 }, () => 'word').join(' '));
    enter();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Message exceeds word limit. Maximum 100 words allowed, but message contains 101 words.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes the word-limit alert away once the next message has been sent', async () => {
    const stream = sseBody();
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => runWithMessage('Short one'),
      'GET /api/v1/threads/thread_1/runs/run_1/stream': () => stream.response(),
    });
    renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    type(Array.from({ length: 101 }, () => 'word').join(' '));
    enter();
    expect(await screen.findByRole('alert')).toHaveTextContent('Message exceeds word limit.');
    type('Short one');
    enter();
    expect(await screen.findByText('Short one', { selector: '.chat-bubble .bidi-line' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/Message exceeds word limit/)).toBeNull());
  });

  it("shows the server's words when a message is refused, and gives the text back", async () => {
    const limit =
      "This conversation has reached the assistant's limit of 100 messages. Please start a new conversation.";
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => json({ detail: limit }, 403),
    });
    renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    type('One more question');
    enter();
    expect(await screen.findByRole('alert')).toHaveTextContent(limit);
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveValue('One more question'));
    expect(screen.queryByText('One more question', { selector: '.chat-bubble .bidi-line' })).toBeNull();
  });

  it('sends with ONE call (POST …/runs carrying the message), and the stored message keeps the row of its stand-in', async () => {
    const stream = sseBody();
    let answerSend!: (response: Response) => void;
    const { calls } = stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => new Promise<Response>((resolve) => (answerSend = resolve)),
      'GET /api/v1/threads/thread_1/runs/run_1/stream': () => stream.response(),
    });
    renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    type('Fresh bread?');
    enter();
    const row = (await screen.findByText('Fresh bread?', { selector: '.chat-bubble .bidi-line' })).closest('li')!;
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    await waitFor(() => expect(answerSend).toBeTypeOf('function'));
    act(() => answerSend(runWithMessage('Fresh bread?')));
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/v1/threads/thread_1/runs/run_1/stream'));
    expect(screen.getByText('Fresh bread?', { selector: '.chat-bubble .bidi-line' }).closest('li')).toBe(row);
    expect(calls.filter((c) => c.key.startsWith('POST '))).toHaveLength(1);
    expect(calls.some((c) => c.key === 'POST /api/v1/threads/thread_1/messages')).toBe(false);
  });

  it('starts fresh and gives the text back when the send finds the thread gone (404 THREAD_NOT_FOUND)', async () => {
    const { calls } = stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => json({ detail: 'THREAD_NOT_FOUND' }, 404),
    });
    const { onThreadChange } = renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    type('Are you there?');
    enter();
    await waitFor(() => expect(onThreadChange).toHaveBeenCalledWith(undefined));
    expect(
      await screen.findByText('That conversation is no longer available. A new one starts with your next message.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveValue('Are you there?'));
    expect(screen.queryByText('Are you there?', { selector: '.chat-bubble .bidi-line' })).toBeNull();
    expect(calls.filter((c) => c.key.startsWith('POST '))).toHaveLength(1);
  });

  it("shows the run's refusal about the assistant as it is, on the same thread (404 Assistant not found)", async () => {
    const gone = 'Assistant not found. Please check if the assistant still exists.';
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => json({ detail: gone }, 404),
    });
    const { onThreadChange } = renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    type('Hello');
    enter();
    expect(await screen.findByRole('alert')).toHaveTextContent(gone);
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveValue('Hello'));
    expect(onThreadChange).not.toHaveBeenCalled();
  });

  it('alerts a missing assistant id before sending anything, and keeps the draft', async () => {
    const { fetchMock } = stubFetch({});
    const connection = owner();
    renderWithProviders(
      <ChatScreen
        assistant={{ ...assistant, externalId: null }}
        connection={connection}
        threadId={undefined}
        onThreadChange={vi.fn()}
        onBack={vi.fn()}
      />,
    );
    type('Hello');
    enter();
    expect(await screen.findByRole('alert')).toHaveTextContent('This chat cannot start: open the share link again.');
    expect(screen.getByLabelText('Message')).toHaveValue('Hello');
    expect(connection.startThread).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('alerts a failed run with its message', async () => {
    const stream = sseBody();
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => runWithMessage('Hi'),
      'GET /api/v1/threads/thread_1/runs/run_1/stream': () => stream.response(),
    });
    renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    type('Hi');
    enter();
    await screen.findByRole('progressbar');
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.length).toBe(3)); // the history, the send, the stream
    act(() => stream.send('failed', { run_id: 'run_1', message: 'The model is unavailable' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Assistant run failed: The model is unavailable');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled(); // empty again, but no longer busy
    type('Again');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('climbs the thinking bar every 0.8 s through the stages, stops at 85 %, and gives up after 45 s (the running reset)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // 5 points a tick
    const stream = sseBody();
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => runWithMessage('Hi'),
      'GET /api/v1/threads/thread_1/runs/run_1/stream': ({ signal }) => stream.response(signal),
    });
    renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    vi.useFakeTimers({ shouldAdvanceTime: true });
    type('Hi');
    enter();
    const bar = await screen.findByRole('progressbar');
    expect(screen.getByText('Analyzing your message...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(800 * 5));
    expect(bar).toHaveAttribute('value', '25');
    expect(screen.getByText('Thinking about the response...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(800 * 5));
    expect(screen.getByText('Generating response...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(800 * 20));
    expect(bar).toHaveAttribute('value', '85');
    expect(screen.getByText('Finalizing response...')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(45_000 - 800 * 30));
    expect(await screen.findByRole('alert')).toHaveTextContent('Assistant response timed out. Please try again.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('lets the writer send again when sending hangs for 10 s (the loading reset)', async () => {
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () => json({ object: 'list', data: [] }),
      'POST /api/v1/threads/thread_1/runs': () => new Promise<Response>(() => {}),
    });
    renderChat({ threadId: 'thread_1' });
    await waitFor(() => expect(screen.queryByText('Loading messages...')).toBeNull());
    vi.useFakeTimers({ shouldAdvanceTime: true });
    type('Hi');
    enter();
    await screen.findByRole('button', { name: 'Sending...' });
    type('Still there?');
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('loads a conversation from the address; history never opens a redirect by itself', async () => {
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () =>
        json({
          object: 'list',
          data: [
            serverMessage('msg_u', 'user', 'Can I order?'),
            serverMessage('msg_a', 'assistant', 'Yes.\n[REDIRECT: https://bakery.example/order]'),
          ],
        }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderChat({ threadId: 'thread_1' });
    expect(await screen.findByText('Can I order?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Visit Link/ })).toBeInTheDocument();
    expect(screen.queryByText('Start a conversation')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(open).not.toHaveBeenCalled();
  });

  it('loads the conversation under StrictMode too (effects run twice in development)', async () => {
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () =>
        json({ object: 'list', data: [serverMessage('msg_u', 'user', 'Still here?')] }),
    });
    renderWithProviders(
      <StrictMode>
        <ChatScreen assistant={assistant} threadId="thread_1" connection={owner()} onThreadChange={vi.fn()} />
      </StrictMode>,
    );
    expect(await screen.findByText('Still here?')).toBeInTheDocument();
  });

  it('starts fresh when the thread is not found (404 THREAD_NOT_FOUND)', async () => {
    stubFetch({ 'GET /api/v1/threads/thread_gone/messages': () => json({ detail: 'THREAD_NOT_FOUND' }, 404) });
    const { onThreadChange } = renderChat({ threadId: 'thread_gone' });
    await waitFor(() => expect(onThreadChange).toHaveBeenCalledWith(undefined));
    expect(await screen.findByText('Start a conversation')).toBeInTheDocument();
    expect(
      screen.getByText('That conversation is no longer available. A new one starts with your next message.'),
    ).toBeInTheDocument();
  });

  it('New Chat creates a thread and moves the address to it', async () => {
    stubFetch({
      'GET /api/v1/threads/thread_1/messages': () =>
        json({ object: 'list', data: [serverMessage('msg_u', 'user', 'Old question')] }),
    });
    const connection = owner('thread_2');
    const { onThreadChange } = renderChat({ threadId: 'thread_1', connection });
    await screen.findByText('Old question');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New Chat' })));
    expect(connection.startThread).toHaveBeenCalledTimes(1);
    expect(onThreadChange).toHaveBeenCalledWith('thread_2');
    expect(screen.queryByText('Old question')).toBeNull();
    expect(screen.getByText('Start a conversation')).toBeInTheDocument();
  });

  it('reports a failed thread creation with the catalogue text and the support line', async () => {
    stubFetch({});
    const connection: ChatConnection = {
      access: { kind: 'owner' },
      startThread: async () => {
        const { ApiError } = await import('@/lib/api-error');
        throw new ApiError('forbidden', 403, 'nope');
      },
    };
    renderChat({ connection });
    type('Hello');
    enter();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "You don't have permission to create conversations with this assistant. Please try again or contact support if the problem persists.",
    );
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveValue('Hello'));
  });

  it('speaks Hebrew', () => {
    renderChat({}, 'he');
    expect(screen.getByText('התחילו שיחה')).toBeInTheDocument();
    expect(screen.getByText('העוזר מוכן')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'שיחה חדשה' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /חזרה ללוח הבקרה/ })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
  });
});
