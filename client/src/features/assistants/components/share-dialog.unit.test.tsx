import '../locales';
import type { AssistantDto } from '@kesher/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '@/lib/toast-store';
import { renderWithProviders } from '@/test/render';
import { ShareDialog } from './share-dialog';

const assistant = (shareToken: string | null) =>
  ({ id: 4, name: 'Bakery helper', share_token: shareToken }) as AssistantDto;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The share endpoints as the server answers them; every call is recorded. */
function stubShareApi() {
  const calls: string[] = [];
  let token: string | null = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      if (url.endsWith('/generate-share-token')) token ??= 'tok123';
      else if (url.endsWith('/rotate-share-token')) token = 'tok456';
      else if (url.endsWith('/share-token') && init.method === 'DELETE') return json({ detail: 'Share token revoked' });
      else return json([]);
      return json({ share_url: `/shared-chat/${token}`, share_token: token });
    }),
  );
  return calls;
}

describe('ShareDialog', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('generates the URL, copies it, and shows Copied! for 2 seconds', async () => {
    stubShareApi();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ShareDialog assistant={assistant(null)} onClose={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Generate Share Options' }));
    const url = await screen.findByLabelText<HTMLInputElement>('Share URL');
    expect(url.value).toBe(`${window.location.origin}/shared-chat/tok123`);
    vi.useFakeTimers();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(writeText).toHaveBeenCalledWith(url.value);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('shows the link an assistant already has, without asking the server for a new one', async () => {
    const calls = stubShareApi();
    renderWithProviders(<ShareDialog assistant={assistant('existing-tok')} onClose={vi.fn()} />);
    expect(screen.getByLabelText<HTMLInputElement>('Share URL').value).toBe(
      `${window.location.origin}/shared-chat/existing-tok`,
    );
    expect(screen.queryByRole('button', { name: 'Generate Share Options' })).toBeNull();
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it('makes a new link only through its own button, after a confirmation that says what stops working', async () => {
    const calls = stubShareApi();
    renderWithProviders(<ShareDialog assistant={assistant('existing-tok')} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create a new link' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create a new share link?' });
    expect(confirm).toHaveTextContent(
      'The current link stops working at once, and so does every website widget that uses it',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create a new share link?' })).toBeNull());
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(screen.getByLabelText<HTMLInputElement>('Share URL').value).toContain('existing-tok');

    fireEvent.click(screen.getByRole('button', { name: 'Create a new link' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, create a new link' }));
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Share URL').value).toBe(
        `${window.location.origin}/shared-chat/tok456`,
      ),
    );
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual(['POST /api/v1/assistants/4/rotate-share-token']);
    expect(toastStore.snapshot().map((toast) => toast.message)).toContain(
      'A new share link was created. The previous link no longer works.',
    );
  });

  it('says it in Hebrew', async () => {
    stubShareApi();
    renderWithProviders(<ShareDialog assistant={assistant('existing-tok')} onClose={vi.fn()} />, { language: 'he' });
    fireEvent.click(screen.getByRole('button', { name: 'יצירת קישור חדש' }));
    expect(await screen.findByRole('dialog', { name: 'ליצור קישור שיתוף חדש?' })).toHaveTextContent(
      'וכך גם כל ווידג׳ט באתר שמשתמש בו',
    );
  });

  it('stops sharing only after a confirmation that says the link and every widget stop working (issue 22 item 16)', async () => {
    const calls = stubShareApi();
    renderWithProviders(<ShareDialog assistant={assistant('existing-tok')} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    const confirm = await screen.findByRole('dialog', { name: 'Stop sharing this assistant?' });
    expect(confirm).toHaveTextContent(
      'The share link stops working at once, and so does every website widget that uses it',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Stop sharing this assistant?' })).toBeNull());
    expect(calls.filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(screen.getByLabelText<HTMLInputElement>('Share URL').value).toContain('existing-tok');

    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, stop sharing' }));
    await waitFor(() => expect(screen.queryByLabelText('Share URL')).toBeNull());
    expect(calls.filter((c) => !c.startsWith('GET'))).toEqual(['DELETE /api/v1/assistants/4/share-token']);
    expect(toastStore.snapshot().map((toast) => toast.message)).toContain('The share link no longer works.');
  });

  it('asks in Hebrew before stopping', async () => {
    stubShareApi();
    renderWithProviders(<ShareDialog assistant={assistant('existing-tok')} onClose={vi.fn()} />, { language: 'he' });
    fireEvent.click(screen.getByRole('button', { name: 'הפסקת שיתוף' }));
    expect(await screen.findByRole('dialog', { name: 'להפסיק לשתף את העוזר?' })).toHaveTextContent(
      'וכך גם כל ווידג׳ט באתר שמשתמש בו',
    );
    expect(screen.getByRole('button', { name: 'כן, להפסיק לשתף' })).toBeInTheDocument();
  });
});
