import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBundleTextSource, TextSourceProvider } from '@/lib/texts';
import { storageKey } from '../conversation-store';
import { embedLocales } from '../locales';
import { EmbedPage } from './embed-page';

const ASSISTANT = {
  id: 9,
  name: 'Harbor Cafe',
  description: 'Answers about our cafe.',
  avatar_url: null,
  openai_assistant_id: 'asst_123456789012345678901234',
};
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
type ServerSource = { file_id: string; filename: string; source_url: string | null };
const serverMessage = (
  id: string,
  role: 'user' | 'assistant',
  text: string,
  seconds = 1_700_000_000,
  sources: ServerSource[] = [],
) => ({
  id,
  role,
  content: [{ type: 'text', text: { value: text, annotations: [] } }],
  created_at: seconds,
  sources,
});

/** A tiny stand-in for the API: records calls, answers the embed's requests. */
class FakeApi {
  calls: { method: string; path: string; body: Record<string, unknown> | null }[] = [];
  threads = new Map<string, ReturnType<typeof serverMessage>[]>();
  nextThread = 1;
  answer = 'We bake scones on Tuesdays.';
  answerSources: ServerSource[] = [];
  stream: 'sse' | 'none' = 'sse';
  runStatus = 'completed';
  assistantResponse: () => Response = () => json(ASSISTANT);
  failThreadStart = false;
  /** What POST …/runs answers instead of taking the message (a refusal stores nothing). */
  refuseRun: (() => Response) | null = null;

  handle = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://kesher.test');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    const path = url.pathname.replace('/api/v1', '');
    this.calls.push({ method, path, body });
    if (path.startsWith('/assistants/shared/')) return this.assistantResponse();
    if (method === 'POST' && path === '/threads/public') {
      if (this.failThreadStart) return json({ detail: 'Server error' }, 500);
      const id = `thread_${this.nextThread++}`;
      this.threads.set(id, []);
      return json({ thread_id: id, id, created_at: 1, session_token: body?.session_token }, 201);
    }
    const match = /^\/threads\/public\/([^/]+)(\/.*)?$/.exec(path);
    if (match) {
      const [, threadId, rest = ''] = match;
      const list = this.threads.get(threadId!);
      if (!list) return json({ detail: 'THREAD_NOT_FOUND' }, 404);
      if (rest === '/messages' && method === 'GET') return json({ data: list });
      // The visitor deleting their conversation (privacy): erased, gone from the server.
      if (rest === '' && method === 'DELETE') {
        this.threads.delete(threadId!);
        return new Response(null, { status: 204 });
      }
      // The send: the question comes with the run (additional_messages) and is stored with it, or neither is.
      if (rest === '/runs' && method === 'POST') {
        if (this.refuseRun) return this.refuseRun();
        const [question] = (body?.additional_messages ?? []) as { role: string; content: string }[];
        const message = serverMessage(
          `msg_${list.length + 1}`,
          'user',
          String(question?.content),
          1_700_000_000 + list.length,
        );
        list.push(message);
        if (this.runStatus === 'completed')
          list.push(
            serverMessage(
              `msg_${list.length + 1}`,
              'assistant',
              this.answer,
              1_700_000_000 + list.length,
              this.answerSources,
            ),
          );
        return json(
          { id: 'run_1', run_id: 'run_1', status: 'queued', last_error: null, message_id: null, user_message: message },
          201,
        );
      }
      if (rest === '/runs/run_1/stream') {
        if (this.stream === 'none') return json({ detail: 'no stream' }, 404);
        const last = list[list.length - 1]!;
        return new Response(
          `event: delta\nid: 1\ndata: ${JSON.stringify({ text: 'We bake' })}\n\nevent: completed\ndata: ${JSON.stringify({ message: last })}\n\n`,
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        );
      }
      if (rest === '/runs/run_1')
        return json({
          id: 'run_1',
          status: this.runStatus,
          last_error: this.runStatus === 'failed' ? { message: 'x' } : null,
        });
    }
    if (path === '/feedback/public') return json({ detail: 'ok' });
    return json({ detail: 'not found' }, 404);
  };
}

let api: FakeApi;
let posted: unknown[];

function renderEmbed(shareToken = 'share-tok', search = '') {
  return render(
    <TextSourceProvider value={createBundleTextSource('en')}>
      <EmbedPage shareToken={shareToken} search={search} />
    </TextSourceProvider>,
  );
}

// What the page loads on first use (the messages, following a run, the server's texts, the privacy calls):
// compiled once here, so the tests' waits are for the page, not for the test runner compiling them. The
// English texts are loaded already, as they are by the time the server answers a real page.
beforeAll(async () => {
  await Promise.all([
    embedLocales.en.load(),
    import('./embed-chat-parts'),
    import('@/lib/chat-core/follow-run'),
    import('../embed-run'),
    import('@/lib/api-error'),
    import('@/features/privacy/api/privacy'),
  ]);
});

beforeEach(() => {
  api = new FakeApi();
  vi.stubGlobal('fetch', vi.fn(api.handle));
  // The page is framed: what it posts to the parent is recorded.
  posted = [];
  const parent = { postMessage: (message: unknown) => posted.push(message) };
  vi.spyOn(window, 'parent', 'get').mockReturnValue(parent as unknown as Window);
});

afterEach(() => vi.unstubAllGlobals());

const stored = () => JSON.parse(localStorage.getItem(storageKey(ASSISTANT.id)) ?? 'null');

describe('the embed page (spec part 2 §2, §4)', () => {
  it('initializes, answers a question with Thinking, stores the conversation and tells the parent it is typing', async () => {
    const user = userEvent.setup();
    renderEmbed();
    screen.getByText('Initializing chat...');
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    screen.getByText('Online');
    screen.getByRole('heading', { name: "Hi! I'm Harbor Cafe" });
    screen.getByText('Answers about our cafe.');
    expect(screen.queryByText('Chat history restored')).toBeNull();

    // A thread was started on the embed channel with the stored 64-hex session token.
    const start = api.calls.find((c) => c.path === '/threads/public')!;
    expect(start.body).toMatchObject({ assistant_id: 9, share_token: 'share-tok', channel: 'embed' });
    expect(start.body!.session_token).toMatch(/^[0-9a-f]{64}$/);
    expect(stored()).toMatchObject({
      threadId: 'thread_1',
      sessionToken: { token: start.body!.session_token },
      version: '1.0',
      shareToken: 'share-tok',
      messages: [],
    });

    const input = screen.getByLabelText('Message');
    await user.type(input, 'When do you bake scones?');
    screen.getByText('5/100 words');
    screen.getByText('~6/400 tokens');
    await user.keyboard('{Enter}');
    expect(input).toHaveValue('');
    await screen.findByText('We bake scones on Tuesdays.');
    screen.getByText('When do you bake scones?');
    expect(screen.queryByText('Thinking...')).toBeNull();

    expect(posted).toEqual([
      { type: 'ASSISTANT_TYPING', isTyping: true },
      { type: 'ASSISTANT_TYPING', isTyping: false },
    ]);
    // One call sent the question with its run; nothing was posted to …/messages.
    const sends = api.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/threads/public/thread_1/'));
    expect(sends.map((c) => c.path)).toEqual(['/threads/public/thread_1/runs']);
    expect(sends[0]!.body).toEqual({
      assistant_id: ASSISTANT.openai_assistant_id,
      session_token: start.body!.session_token,
      additional_messages: [{ role: 'user', content: 'When do you bake scones?' }],
    });
    // The run was followed over the stream, never polled.
    expect(api.calls.some((c) => c.path === '/threads/public/thread_1/runs/run_1/stream')).toBe(true);
    expect(api.calls.some((c) => c.path === '/threads/public/thread_1/runs/run_1')).toBe(false);
    await waitFor(() =>
      expect(stored().messages.map((m: { content: string }) => m.content)).toEqual([
        'When do you bake scones?',
        'We bake scones on Tuesdays.',
      ]),
    );
    expect(screen.getAllByRole('listitem')[0]!.querySelector('time')).not.toBeNull();
  });

  it("shows an answer's sources once, under it, also after the conversation is restored", async () => {
    api.answerSources = [
      { file_id: 'file-1', filename: 'menu.txt', source_url: null },
      { file_id: 'file-2', filename: 'About us', source_url: 'https://cafe.example/about' },
    ];
    const first = renderEmbed();
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'When do you bake scones?' } });
    fireEvent.submit(screen.getByLabelText('Message').closest('form')!);
    const answer = (await screen.findByText('We bake scones on Tuesdays.')).closest('li')!;
    const sources = () => screen.getAllByText(/^Sources:/);
    expect(sources()).toHaveLength(1);
    expect(within(answer).getByText('menu.txt')).toBeInTheDocument();
    expect(within(answer).getByRole('link', { name: 'About us' })).toHaveAttribute(
      'href',
      'https://cafe.example/about',
    );
    await waitFor(() => expect(stored().messages[1]?.sources).toHaveLength(2));
    first.unmount();

    renderEmbed();
    await screen.findByText('Chat history restored');
    expect(sources()).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'About us' })).toBeInTheDocument();
  });

  it("names a curated answer's source in the page's language: Hebrew on a Hebrew page (issue 26)", async () => {
    api.answerSources = [
      { file_id: 'qa_aaaaaaaaaaaaaaaaaaaaaaaa', filename: 'Answer from the owner', source_url: null },
    ];
    render(
      <TextSourceProvider value={createBundleTextSource('he')}>
        <EmbedPage shareToken="share-tok" search="" />
      </TextSourceProvider>,
    );
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    fireEvent.change(screen.getByLabelText('הודעה'), { target: { value: 'מתי אתם אופים? ' } });
    fireEvent.submit(screen.getByLabelText('הודעה').closest('form')!);
    const answer = (await screen.findByText('We bake scones on Tuesdays.')).closest('li')!;
    expect(within(answer).getByText('תשובה של בעל העסק')).toBeInTheDocument();
    expect(within(answer).queryByText('Answer from the owner')).toBeNull();
  });

  it('restores the stored conversation with its badge, and likes an answer', async () => {
    const first = renderEmbed();
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello there' } });
    fireEvent.submit(screen.getByLabelText('Message').closest('form')!);
    await screen.findByText('We bake scones on Tuesdays.');
    first.unmount();

    const threadStarts = api.calls.filter((c) => c.path === '/threads/public').length;
    renderEmbed();
    await screen.findByText('Chat history restored');
    screen.getByText('Hello there');
    screen.getByText('We bake scones on Tuesdays.');
    expect(api.calls.filter((c) => c.path === '/threads/public')).toHaveLength(threadStarts); // no new thread

    await userEvent.click(screen.getByRole('button', { name: 'Helpful' }));
    await screen.findByText('Thank you for your feedback!');
    expect(screen.getByRole('button', { name: 'Helpful' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls.find((c) => c.path === '/feedback/public')!.body).toMatchObject({
      rating: 'like',
      thread_id: 'thread_1',
      message_id: 'msg_2',
      is_public: true,
    });
    await waitFor(() => expect(stored().messages[1].feedback).toBe('like'));
  });

  it('drops a stored conversation whose thread the server no longer knows and starts a new one', async () => {
    localStorage.setItem(
      storageKey(ASSISTANT.id),
      JSON.stringify({
        threadId: 'thread_gone',
        messages: [{ id: 'old', role: 'user', content: 'Old question', timestamp: 1 }],
        sessionToken: { token: 'b'.repeat(64) },
        deviceFingerprint: 'x',
        timestamp: Date.now(),
        expiresAt: Date.now() + 1000_000,
        version: '1.0',
        domain: 'shop.example',
        shareToken: 'share-tok',
      }),
    );
    renderEmbed();
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    expect(screen.queryByText('Old question')).toBeNull();
    expect(screen.queryByText('Chat history restored')).toBeNull();
    expect(api.calls.find((c) => c.path === '/threads/public')!.body!.session_token).toBe('b'.repeat(64));
    expect(stored().threadId).toBe('thread_1');
  });

  it('sends again once on a new thread when the send finds the thread gone (404 THREAD_NOT_FOUND)', async () => {
    renderEmbed();
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    const session = stored().sessionToken.token;
    api.threads.delete('thread_1'); // the server forgot the conversation
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Still open?' } });
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter' });
    await screen.findByText('We bake scones on Tuesdays.');
    screen.getByText('Still open?');
    expect(screen.queryByText(/^Sorry, I encountered an error/)).toBeNull();
    const posts = api.calls.filter((c) => c.method === 'POST').map((c) => c.path);
    expect(posts).toEqual([
      '/threads/public',
      '/threads/public/thread_1/runs',
      '/threads/public',
      '/threads/public/thread_2/runs',
    ]);
    expect(api.calls.filter((c) => c.path === '/threads/public').map((c) => c.body!.session_token)).toEqual([
      session,
      session,
    ]);
    await waitFor(() =>
      expect(stored()).toMatchObject({
        threadId: 'thread_2',
        messages: [{ content: 'Still open?' }, { content: 'We bake scones on Tuesdays.' }],
      }),
    );
  });

  it("apologises and shows the server's words when the send is refused, and stores nothing", async () => {
    const limit =
      "This conversation has reached the assistant's limit of 100 messages. Please start a new conversation.";
    api.refuseRun = () => json({ detail: limit }, 403);
    renderEmbed();
    const input = await screen.findByLabelText('Message');
    fireEvent.change(input, { target: { value: 'One more' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await screen.findByText('Sorry, I encountered an error. Please try again.');
    expect(within(screen.getByRole('alert')).getByText(limit)).toBeInTheDocument();
    expect(screen.queryByText('Thinking...')).toBeNull();
    expect(api.threads.get('thread_1')).toEqual([]);
    expect(api.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/threads/public/'))).toHaveLength(1);
    await waitFor(() => expect(stored().messages).toEqual([]));
  });

  it('polls when the stream is unavailable and apologises for a failed run', async () => {
    api.stream = 'none';
    api.runStatus = 'failed';
    renderEmbed();
    const input = await screen.findByLabelText('Message');
    fireEvent.change(input, { target: { value: 'Hi' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    screen.getByText('Thinking...');
    await screen.findByText('Sorry, I encountered an error processing your request. Please try again.', undefined, {
      timeout: 10_000,
    });
    expect(api.calls.some((c) => c.path === '/threads/public/thread_1/runs/run_1')).toBe(true);
    expect(screen.queryByText('Thinking...')).toBeNull();
  });

  it('keeps Shift+Enter for new lines and refuses an over-long message with the rule in an alert and under the input', async () => {
    renderEmbed();
    const input = await screen.findByLabelText('Message');
    fireEvent.change(input, { target: { value: 'one' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(api.calls.some((c) => c.method === 'POST' && /\/(messages|runs)$/.test(c.path))).toBe(false);

    const long = Array.from({ length: 101 }, (_, i) => `w${i}`).join(' ');
    fireEvent.change(input, { target: { value: long } });
    const rule = 'Message exceeds word limit. Maximum 100 words allowed, but message contains 101 words.';
    expect(screen.getByText('101/100 words')).toHaveClass('counter-over');
    screen.getByText(rule); // under the input
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(within(screen.getByRole('alert')).getByText(rule)).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && /\/(messages|runs)$/.test(c.path))).toBe(false);
    expect(input).toHaveValue(long);
  });

  it('clears the conversation after the confirmation with a new session, and says so when that fails', async () => {
    renderEmbed();
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
    const firstToken = stored().sessionToken.token;
    await userEvent.click(screen.getByRole('button', { name: 'Clear conversation' }));
    // The confirmation's code loads when it is first opened.
    await screen.findByText('Are you sure you want to clear this conversation? This action cannot be undone.');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(stored().threadId).toBe('thread_2'));
    expect(stored().sessionToken.token).not.toBe(firstToken);
    // The cleared conversation is deleted on the server too, proven by its own session token.
    expect(api.calls).toContainEqual({ method: 'DELETE', path: '/threads/public/thread_1', body: null });
    expect(api.threads.has('thread_1')).toBe(false);

    api.failThreadStart = true;
    await userEvent.click(screen.getByRole('button', { name: 'Clear conversation' }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await screen.findByText('Failed to clear conversation. Please try again.');
    expect(stored().threadId).toBe('thread_2');
  });

  it('navigates the parent 1 s after a fresh answer with a redirect', async () => {
    api.answer = 'Our prices are online.\n[REDIRECT: https://shop.example/pricing]';
    renderEmbed();
    const input = await screen.findByLabelText('Message');
    fireEvent.change(input, { target: { value: 'I want to buy' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await screen.findByText('Our prices are online.');
    expect(screen.queryByText(/REDIRECT/)).toBeNull();
    expect(posted).not.toContainEqual({ type: 'NAVIGATE_TO_URL', url: 'https://shop.example/pricing' });
    await waitFor(
      () => expect(posted).toContainEqual({ type: 'NAVIGATE_TO_URL', url: 'https://shop.example/pricing' }),
      { timeout: 10_000 },
    );
  });

  it('shows the start-up errors of spec §8', async () => {
    const { unmount } = renderEmbed('');
    screen.getByText('No share token provided in URL');
    unmount();

    api.assistantResponse = () => json({ detail: 'Invalid or expired share link.' }, 404);
    const notFound = renderEmbed();
    await screen.findByText('Assistant not found.');
    screen.getByText(/ask the website owner for a new link/);
    notFound.unmount();

    api.assistantResponse = () =>
      json({ detail: { message: 'The widget is paused.', suggestion: 'Try again tomorrow.' } }, 500);
    const detail = renderEmbed();
    await screen.findByText('The widget is paused.');
    screen.getByText('Try again tomorrow.');
    screen.getByText('Troubleshooting tips');
    detail.unmount();

    api.assistantResponse = () => json({ detail: 'Internal error' }, 500);
    const server = renderEmbed();
    await screen.findByText('Server error occurred.');
    server.unmount();

    let fail = true;
    api.assistantResponse = () => {
      if (fail) throw new TypeError('Failed to fetch');
      return json(ASSISTANT);
    };
    renderEmbed();
    await screen.findByText('Connection error.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByRole('heading', { name: 'Harbor Cafe', level: 1 });
  });
});
