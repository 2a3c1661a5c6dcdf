import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { he } from '../locales/he';
import { DeleteConversation } from './delete-conversation';
import { KeptUntil } from './kept-until';
import { RetentionPanel } from './privacy-panels';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let calls: { method: string; url: string }[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ method: init.method ?? 'GET', url });
      if (url.endsWith('/privacy/retention'))
        return json({
          conversation_days: 90,
          analytics_months: 24,
          security_log_months: 12,
          payment_years: 7,
          inactive_account_months: 24,
        });
      if (url.includes('/threads/kept-until'))
        return json({
          conversation_days: 90,
          threads: [
            {
              thread_id: 'thread_a',
              last_message_at: '2026-01-01T10:00:00.000Z',
              kept_until: '2026-04-01T10:00:00.000Z',
            },
          ],
        });
      if (init.method === 'DELETE' && url.includes('/threads/public/thread_gone'))
        return json({ detail: 'Server error' }, 500);
      if (init.method === 'DELETE') return new Response(null, { status: 204 });
      return json({ detail: 'not found' }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the privacy components', () => {
  it("Chat History's row says until when a conversation is kept, and nothing for one it does not know", async () => {
    renderWithProviders(
      <>
        <KeptUntil assistantId={3} threadId="thread_a" />
        <KeptUntil assistantId={3} threadId="thread_unknown" />
      </>,
    );
    await screen.findByText('Kept until Apr 1, 2026');
    expect(screen.getAllByText(/Kept until/)).toHaveLength(1);
    // One call for the whole list.
    expect(calls.filter((c) => c.url.includes('kept-until'))).toHaveLength(1);
  });

  it('shows the retention periods in Hebrew', async () => {
    renderWithProviders(<RetentionPanel />, { language: 'he' });
    await screen.findByText(he.retention.conversations.replace('{days}', '90'));
    screen.getByText(he.retention.payments.replace('{years}', '7'));
  });

  it("asks before deleting a visitor's conversation, then deletes it with the visitor's session token", async () => {
    const deleted = vi.fn();
    renderWithProviders(
      <DeleteConversation threadId="thread_a" sessionToken="visitor-token-0123456789" onDeleted={deleted} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete this conversation' }));
    screen.getByText(/Delete this conversation for good\?/);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete this conversation' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toHaveBeenCalledTimes(1));
    expect(calls).toContainEqual({
      method: 'DELETE',
      url: '/api/v1/threads/public/thread_a?session_token=visitor-token-0123456789',
    });
  });

  it('keeps the conversation and says so when the delete fails', async () => {
    const deleted = vi.fn();
    renderWithProviders(
      <DeleteConversation threadId="thread_gone" sessionToken="visitor-token-0123456789" onDeleted={deleted} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete this conversation' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByText('Could not delete the conversation. Please try again.');
    expect(deleted).not.toHaveBeenCalled();
  });
});
