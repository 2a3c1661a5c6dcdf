import type { InboxEntryDto } from '@kesher/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { AllInboxPage, customerConversations } from './all-inbox-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const entry = (over: Partial<InboxEntryDto>): InboxEntryDto => ({
  thread_id: 'thread_1',
  assistant_id: 1,
  assistant_name: 'Bakery',
  channel: 'embed',
  title: 'Opening hours',
  contact_name: null,
  taken_over: false,
  last_message: 'When do you open?',
  last_message_at: 1_764_000_000,
  created_at: 1_764_000_000,
  ...over,
});

const answer = [
  entry({
    thread_id: 'thread_tg',
    assistant_id: 2,
    assistant_name: 'Cafe',
    channel: 'telegram',
    contact_name: 'Noa',
    last_message: 'Is the terrace open?',
    taken_over: true,
  }),
  entry({ thread_id: 'thread_own', channel: 'app', title: 'My own test chat' }),
  entry({ thread_id: 'thread_widget', channel: 'embed', last_message: 'מתי אתם פתוחים?' }),
  entry({
    thread_id: 'thread_link',
    assistant_id: 3,
    assistant_name: 'Pottery',
    channel: 'public_link',
    title: 'Wheel course',
  }),
];

describe('/inbox, the one inbox across every assistant', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists every customer conversation of every assistant with its channel (not the owner’s own chats), filters by channel and opens one', async () => {
    const fetchMock = vi.fn(async () => json({ data: answer }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<AllInboxPage />);
    expect(screen.getByRole('heading', { name: 'Inbox', level: 1 })).toBeInTheDocument();
    const rows = await screen.findAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('data-channel'))).toEqual(['telegram', 'embed', 'public_link']);
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/inbox?limit=200', expect.anything());
    const telegram = rows[0]!;
    expect(within(telegram).getByText('Telegram')).toBeInTheDocument();
    expect(within(telegram).getByText('Cafe')).toBeInTheDocument();
    expect(within(telegram).getByText('Noa')).toBeInTheDocument();
    expect(within(telegram).getByText('You are answering')).toBeInTheDocument();
    expect(within(telegram).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/chat/2/thread_tg');
    expect(within(rows[1]!).getByText('Website widget')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Share link')).toBeInTheDocument();
    expect(screen.queryByText('My own test chat')).toBeNull();

    fireEvent.change(screen.getByLabelText('Channel'), { target: { value: 'embed' } });
    expect(screen.getAllByRole('listitem').map((row) => row.getAttribute('data-channel'))).toEqual(['embed']);

    fireEvent.change(screen.getByLabelText('Channel'), { target: { value: 'all' } });
    fireEvent.click(within(screen.getAllByRole('listitem')[0]!).getByRole('button', { name: 'Take over or reply' }));
    expect(within(screen.getAllByRole('listitem')[0]!).getByRole('button', { name: 'Hand back' })).toBeInTheDocument();
  });

  it('says when there is no customer conversation yet, in Hebrew too', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ data: [entry({ channel: 'app' })] })),
    );
    renderWithProviders(<AllInboxPage />, { language: 'he' });
    expect(await screen.findByText('עדיין אין שיחות לקוחות.')).toBeInTheDocument();
  });

  it('keeps only customer channels', () => {
    expect(customerConversations(answer, 'all').map((e) => e.thread_id)).toEqual([
      'thread_tg',
      'thread_widget',
      'thread_link',
    ]);
    expect(customerConversations(answer, 'telegram').map((e) => e.thread_id)).toEqual(['thread_tg']);
  });
});
