import '@/features/assistants/locales';
import type { AssistantDto } from '@kesher/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatHistoryModal } from '@/features/assistants/components/chat-history-modal';
import { json, serverMessage, stubFetch } from '@/features/chat/test/fake-server';
import { renderRoutes } from '@/test/render';
import { Component as ChatRoute } from './chat';

const assistant: AssistantDto = {
  id: 4,
  name: 'Bakery helper',
  description: 'Questions about bread',
  instructions: 'Be kind.',
  chat_limit: 100,
  website_url: null,
  avatar_url: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  user_id: 'u1',
  openai_assistant_id: `asst_${'a'.repeat(24)}`,
  share_token: 'tok',
  telegram_integration: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 50, max_depth: 5, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
};
const thread = (id: string, isPublic: boolean) => ({
  id,
  thread_id: id,
  openai_thread_id: id,
  title: isPublic ? 'Prices' : 'Mine',
  created_at: 1_700_000_000,
  is_public: isPublic,
  assistant_id: 4,
  channel: isPublic ? 'embed' : 'app',
});
const visitorMessages = () =>
  json({
    object: 'list',
    data: [
      serverMessage('msg_u', 'user', 'How much is a loaf?'),
      serverMessage('msg_a', 'assistant', 'Twelve shekels.'),
    ],
  });

const routes = [
  { path: '/dashboard', element: <ChatHistoryModal assistant={assistant} onClose={vi.fn()} /> },
  { path: '/chat/:assistantId/:threadId?', Component: ChatRoute },
];

describe("the owner's chat with a visitor's conversation", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opens it read-only from its address: the messages, a note, no input and no rating', async () => {
    const { calls } = stubFetch({
      'GET /api/v1/assistants/': () => json([assistant]),
      'GET /api/v1/threads/thread_v': () => json(thread('thread_v', true)),
      'GET /api/v1/threads/thread_v/messages': visitorMessages,
    });
    renderRoutes(routes, { path: '/chat/4/thread_v' });
    expect(await screen.findByText('Twelve shekels.')).toBeInTheDocument();
    expect(await screen.findByRole('note')).toHaveTextContent(
      "This is a visitor's conversation: you can read it here, but not write in it.",
    );
    expect(screen.queryByLabelText('Message')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Helpful' })).toBeNull();
    expect(screen.getByRole('button', { name: 'New Chat' })).toBeInTheDocument(); // their own chat is one click away
    expect(calls.map((c) => c.key)).toContain('GET /api/v1/threads/thread_v');
  });

  it("keeps the input for the owner's own conversation", async () => {
    stubFetch({
      'GET /api/v1/assistants/': () => json([assistant]),
      'GET /api/v1/threads/thread_o': () => json(thread('thread_o', false)),
      'GET /api/v1/threads/thread_o/messages': () => json({ object: 'list', data: [] }),
    });
    renderRoutes(routes, { path: '/chat/4/thread_o' });
    expect(await screen.findByLabelText('Message')).toBeInTheDocument();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('Resume in Chat History opens a visitor conversation read-only at once', async () => {
    const { calls } = stubFetch({
      'GET /api/v1/assistants/4/threads': () => json([thread('thread_v', true)]),
      'GET /api/v1/assistants/': () => json([assistant]),
      'GET /api/v1/threads/thread_v/messages': visitorMessages,
    });
    const { router } = renderRoutes(routes, { path: '/dashboard' });
    const row = (await screen.findByText('Prices')).closest('li')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat/4/thread_v'));
    expect(await screen.findByText('Twelve shekels.')).toBeInTheDocument();
    expect(screen.getByRole('note')).toBeInTheDocument();
    expect(screen.queryByLabelText('Message')).toBeNull();
    expect(calls.map((c) => c.key)).not.toContain('GET /api/v1/threads/thread_v'); // Chat History already said whose it is
  });

  it('says it in Hebrew', async () => {
    stubFetch({
      'GET /api/v1/assistants/': () => json([assistant]),
      'GET /api/v1/threads/thread_v': () => json(thread('thread_v', true)),
      'GET /api/v1/threads/thread_v/messages': visitorMessages,
    });
    renderRoutes(routes, { path: '/chat/4/thread_v', language: 'he' });
    expect(await screen.findByRole('note')).toHaveTextContent('זו שיחה של מבקר');
  });

  it('shows under an answer which workflow fired for it and why, read lazily from the conversation record', async () => {
    const { conversationAutomation } = await import('@/features/automation/testing/fake-automation-api');
    const { calls } = stubFetch({
      'GET /api/v1/assistants/': () => json([assistant]),
      'GET /api/v1/threads/thread_v': () => json(thread('thread_v', true)),
      'GET /api/v1/threads/thread_v/messages': visitorMessages, // the answer was written by run_1
      'GET /api/v1/automation/conversations/thread_v': () => json(conversationAutomation({ thread_id: 'thread_v' })),
    });
    renderRoutes(routes, { path: '/chat/4/thread_v' });
    const answer = (await screen.findByText('Twelve shekels.')).closest('li')!;
    const summary = await within(answer).findByText(/Workflow: Book a table/);
    fireEvent.click(summary);
    expect(summary.closest('details')).toHaveTextContent('Fired by this message (score 87%).');
    expect(within(answer).getByText('table tonight')).toBeInTheDocument();
    // Under the answer only, asked once for the whole conversation.
    expect(within(screen.getByText('How much is a loaf?').closest('li')!).queryByText(/Automation/)).toBeNull();
    expect(calls.filter((c) => c.key.includes('/automation/'))).toHaveLength(1);
  });

  it('shows no automation note when nothing fired in the conversation', async () => {
    const { conversationAutomation } = await import('@/features/automation/testing/fake-automation-api');
    const { calls } = stubFetch({
      'GET /api/v1/assistants/': () => json([assistant]),
      'GET /api/v1/threads/thread_v': () => json(thread('thread_v', true)),
      'GET /api/v1/threads/thread_v/messages': visitorMessages,
      'GET /api/v1/automation/conversations/thread_v': () =>
        json(conversationAutomation({ thread_id: 'thread_v', firings: [], action_calls: [] })),
    });
    const { queryClient } = renderRoutes(routes, { path: '/chat/4/thread_v' });
    await screen.findByText('Twelve shekels.');
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/v1/automation/conversations/thread_v'));
    // The record has been read (not only asked for), so a note would be on the page by now.
    await waitFor(() =>
      expect(queryClient.getQueryState(['automation', 'conversation', 'thread_v'])?.status).toBe('success'),
    );
    expect(screen.queryByText(/Automation/)).toBeNull();
    expect(document.querySelector('details')).toBeNull();
  });
});
