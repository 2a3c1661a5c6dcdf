import type { AssistantDto } from '@kesher/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ChatHistoryModal } from './chat-history-modal';

const assistant = { id: 4, name: 'Bakery helper' } as AssistantDto;
const thread = (id: string, title: string, isPublic: boolean) => ({
  id,
  thread_id: id,
  openai_thread_id: id,
  title,
  created_at: 1_700_000_000,
  is_public: isPublic,
  assistant_id: 4,
});
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** The threads API of one assistant, answered from a list the test can inspect. */
function stubThreads(initial: ReturnType<typeof thread>[], inbox: Record<string, unknown>[] = []) {
  let list = [...initial];
  let entries = [...inbox];
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${path}${init?.body ? ` ${String(init.body)}` : ''}`);
      if (method === 'GET' && path === '/api/v1/assistants/4/threads') return json(list);
      if (method === 'GET' && path === '/api/v1/inbox') return json({ data: entries });
      const takeover = /^\/api\/v1\/threads\/([^/]+)\/(takeover|handback)$/.exec(path);
      if (method === 'POST' && takeover) {
        entries = entries.map((e) =>
          e.thread_id === takeover[1] ? { ...e, taken_over: takeover[2] === 'takeover' } : e,
        );
        return json({ thread_id: takeover[1], taken_over: takeover[2] === 'takeover', channel: 'telegram' });
      }
      if (method === 'POST' && path.endsWith('/owner-reply')) {
        const content = (JSON.parse(String(init!.body)) as { content: string }).content;
        return json(
          {
            id: 'msg_1',
            thread_id: path.split('/')[4],
            role: 'assistant',
            author: 'owner',
            text: content,
            created_at: 1_700_000_100,
          },
          201,
        );
      }
      const id = path.split('/').pop()!;
      if (method === 'PATCH') {
        const title = (JSON.parse(String(init!.body)) as { title: string }).title;
        list = list.map((t) => (t.id === id ? { ...t, title } : t));
        return json(list.find((t) => t.id === id));
      }
      if (method === 'DELETE') {
        list = list.filter((t) => t.id !== id);
        return json({ detail: 'Thread deleted' });
      }
      throw new Error(`unexpected ${method} ${path}`);
    }),
  );
  return calls;
}

const row = (name: string | RegExp) => screen.getByText(name).closest('li')!;

describe('ChatHistoryModal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the assistant's conversations: 'Untitled Conversation' for an empty title, a Public badge for visitors'", async () => {
    stubThreads([thread('thread_a', '', false), thread('thread_b', 'Prices', true)]);
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    expect(screen.getByText('Loading conversations...')).toBeInTheDocument();
    expect(await screen.findByText('Untitled Conversation')).toBeInTheDocument();
    expect(within(row('Prices')).getByText('Public')).toBeInTheDocument();
    expect(within(row('Untitled Conversation')).queryByText('Public')).toBeNull();
  });

  it('shows the empty and the error states', async () => {
    stubThreads([]);
    const first = renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    expect(
      await screen.findByText('No conversations yet. Start a chat and it will be listed here.'),
    ).toBeInTheDocument();
    first.unmount();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ detail: 'nope' }, 403)),
    );
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading conversations');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('renames inline: the title is prefilled and required', async () => {
    const calls = stubThreads([thread('thread_a', 'Hours', false)]);
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Actions for Hours' })).getByRole('button', { name: 'Rename' }),
    );
    const input = screen.getByLabelText('New title');
    expect(input).toHaveValue('Hours');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Title cannot be empty');
    expect(calls.some((c) => c.startsWith('PATCH'))).toBe(false);

    fireEvent.change(input, { target: { value: '  Opening hours ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(await screen.findByText('Opening hours')).toBeInTheDocument();
    expect(calls).toContain('PATCH /api/v1/threads/thread_a {"title":"Opening hours"}');
    expect(screen.queryByLabelText('New title')).toBeNull();
  });

  it('cancel leaves the title as it was', async () => {
    stubThreads([thread('thread_a', 'Hours', false)]);
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Actions for Hours' })).getByRole('button', { name: 'Rename' }),
    );
    fireEvent.change(screen.getByLabelText('New title'), { target: { value: 'Something else' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Hours')).toBeInTheDocument();
  });

  it('deletes after a confirmation and reloads the list', async () => {
    const calls = stubThreads([thread('thread_a', 'Hours', false), thread('thread_b', '', true)]);
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Actions for Hours' })).getByRole('button', { name: 'Delete' }),
    );
    expect(within(row('Hours')).getByText('Delete this conversation? This cannot be undone.')).toBeInTheDocument();
    expect(calls.some((c) => c.startsWith('DELETE'))).toBe(false);
    await act(async () => fireEvent.click(within(row('Hours')).getByRole('button', { name: 'Yes, delete' })));
    await waitFor(() => expect(screen.queryByText('Hours')).toBeNull());
    expect(calls).toContain('DELETE /api/v1/threads/thread_a');
    expect(calls.filter((c) => c === 'GET /api/v1/assistants/4/threads')).toHaveLength(2);
    expect(screen.getByText('Untitled Conversation')).toBeInTheDocument();
  });

  it('resumes a conversation at /chat/{assistantId}/{threadId}', async () => {
    stubThreads([thread('thread_a', 'Hours', false)]);
    const { router } = renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />, {
      path: '/dashboard',
    });
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Actions for Hours' })).getByRole('button', { name: 'Resume' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat/4/thread_a'));
  });

  it('speaks Hebrew', async () => {
    stubThreads([thread('thread_a', '', true)]);
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />, { language: 'he' });
    expect(await screen.findByText('שיחה ללא כותרת')).toBeInTheDocument();
    expect(screen.getByText('ציבורית')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'היסטוריית שיחות — Bakery helper' })).toBeInTheDocument();
  });

  it('is one inbox: a Telegram conversation names its channel and customer, is taken over, answered by the owner and handed back', async () => {
    const calls = stubThreads(
      [thread('thread_t', 'Order question', true)],
      [
        {
          thread_id: 'thread_t',
          assistant_id: 4,
          assistant_name: 'Bakery helper',
          channel: 'telegram',
          title: 'Order question',
          contact_name: 'Noa',
          taken_over: false,
          last_message: 'Do you deliver?',
          last_message_at: 1_700_000_050,
          created_at: 1_700_000_000,
        },
      ],
    );
    renderWithProviders(<ChatHistoryModal assistant={assistant} onClose={vi.fn()} />);
    await screen.findByText('Order question');
    const conversation = () => within(row('Order question'));
    expect(await conversation().findByText('Telegram')).toBeInTheDocument();
    expect(conversation().getByText('Noa')).toBeInTheDocument();
    expect(conversation().getByText('Last message: Do you deliver?')).toBeInTheDocument();

    fireEvent.click(conversation().getByRole('button', { name: 'Take over' }));
    expect(await conversation().findByText('You are answering')).toBeInTheDocument();
    fireEvent.click(conversation().getByRole('button', { name: 'Send' }));
    expect(conversation().getByRole('alert')).toHaveTextContent('Message content cannot be empty');
    fireEvent.change(conversation().getByPlaceholderText('Your reply'), { target: { value: 'Yes, on Tuesdays.' } });
    fireEvent.click(conversation().getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(calls).toContain('POST /api/v1/threads/thread_t/owner-reply {"content":"Yes, on Tuesdays."}'),
    );
    fireEvent.click(conversation().getByRole('button', { name: 'Hand back' }));
    expect(await conversation().findByRole('button', { name: 'Take over' })).toBeInTheDocument();
    expect(calls).toContain('POST /api/v1/threads/thread_t/handback {}');
  });
});
