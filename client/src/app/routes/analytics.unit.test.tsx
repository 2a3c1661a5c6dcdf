import { act, fireEvent, screen } from '@testing-library/react';
import { useLogout } from '@/features/auth/api/logout';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { crawlSession } from '@/features/crawler/crawl-session';
import { renderWithProviders } from '@/test/render';
import { Component as AnalyticsRoute } from './analytics';

/** The browser's WebSocket as the test drives it: the progress socket the panel opens. */
class TestSocket {
  static all: TestSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    TestSocket.all.push(this);
  }
  /** As a browser does: the close event follows, with the code the closing side sent. */
  close(code = 1005) {
    if (this.closedWith !== null) return;
    this.closedWith = code;
    act(() => this.onclose?.({ code }));
  }
  send(message: Record<string, unknown>) {
    const full = {
      type: 'crawl_progress',
      crawl_id: 'crawl_9',
      status: 'crawling',
      pages_discovered: 0,
      pages_processed: 0,
      pages_linked_to_assistant: 0,
      progress_percentage: 0,
      current_url: null,
      estimated_total: 0,
      duration: 0,
      assistant_name: 'Crumb',
      message: null,
      ...message,
    };
    act(() => this.onmessage?.({ data: JSON.stringify(full) }));
  }
}

describe('the /analytics route', () => {
  beforeEach(() => {
    TestSocket.all = [];
    vi.stubGlobal('WebSocket', TestSocket);
    // The analytics calls are not what this is about: they fail, and each section offers its Retry.
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ detail: 'Not found' }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    localStorage.setItem('firebaseToken', 'a-long-enough-token');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    crawlSession.clear();
  });

  it('reopens the progress panel of a crawl kept in session storage after a reload, follows it, and closes 3 s after completion', async () => {
    // What a reload finds: the three entries the crawl's start wrote.
    sessionStorage.setItem('activeCrawlId', 'crawl_9');
    sessionStorage.setItem('activeCrawlUrl', 'https://crumb.example');
    sessionStorage.setItem('crawlStartTime', String(Date.now() - 20_000));
    renderWithProviders(<AnalyticsRoute />);
    expect(await screen.findByRole('heading', { name: 'Analytics', level: 1 })).toBeInTheDocument();
    const panel = screen.getByRole('complementary', { name: 'Crawl progress' });
    expect(panel).toHaveTextContent('Crawling https://crumb.example');
    expect(TestSocket.all).toHaveLength(1);
    const socket = TestSocket.all[0]!;
    expect(socket.url).toContain('/api/v1/ws/crawl-progress/crawl_9');

    act(() => socket.onopen?.());
    socket.send({ progress_percentage: 40, pages_processed: 4, estimated_total: 10 });
    expect(panel).toHaveTextContent('Crawling · 40%');

    vi.useFakeTimers();
    socket.send({
      status: 'completed',
      progress_percentage: 100,
      pages_processed: 10,
      pages_linked_to_assistant: 10,
      completion: { added: 10, unchanged: 0, removed: 0, not_added: 0, not_added_reason: null },
    });
    expect(panel).toHaveTextContent('Completed · 100%');
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(screen.getByRole('complementary', { name: 'Crawl progress' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('complementary', { name: 'Crawl progress' })).toBeNull();
    expect(sessionStorage.getItem('activeCrawlId')).toBeNull();
    expect(sessionStorage.getItem('activeCrawlUrl')).toBeNull();
    expect(sessionStorage.getItem('crawlStartTime')).toBeNull();
  });

  it('shows no panel and opens no socket when no crawl is kept', async () => {
    renderWithProviders(<AnalyticsRoute />);
    expect(await screen.findByRole('heading', { name: 'Analytics', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Crawl progress' })).toBeNull();
    expect(TestSocket.all).toHaveLength(0);
  });

  it('reopens it in Hebrew on a Hebrew page', async () => {
    crawlSession.start('crawl_9', 'https://crumb.example');
    renderWithProviders(<AnalyticsRoute />, { language: 'he' });
    expect(await screen.findByRole('heading', { name: 'אנליטיקה', level: 1 })).toBeInTheDocument();
    const panel = screen.getByRole('complementary', { name: 'התקדמות הסריקה' });
    expect(panel).toHaveTextContent('סורק את https://crumb.example');
    expect(panel).toHaveTextContent('מתחבר...');
  });

  it('signing out closes the progress socket at once, and it does not reconnect', async () => {
    crawlSession.start('crawl_9', 'https://crumb.example');
    function SignOut() {
      const logout = useLogout();
      return (
        <button type="button" onClick={() => logout.mutate()}>
          Sign out
        </button>
      );
    }
    renderWithProviders(
      <>
        <SignOut />
        <AnalyticsRoute />
      </>,
    );
    await screen.findByRole('heading', { name: 'Analytics', level: 1 });
    const socket = TestSocket.all[0]!;
    act(() => socket.onopen?.());
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(socket.closedWith).toBe(4401);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(TestSocket.all).toHaveLength(1);
  });

  it('a socket the server closes for a signed-out session is not opened again', async () => {
    crawlSession.start('crawl_9', 'https://crumb.example');
    renderWithProviders(<AnalyticsRoute />);
    await screen.findByRole('heading', { name: 'Analytics', level: 1 });
    const socket = TestSocket.all[0]!;
    act(() => socket.onopen?.());
    vi.useFakeTimers();
    act(() => socket.onclose?.({ code: 4401 }));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(TestSocket.all).toHaveLength(1);
    // A connection that merely dropped is opened again (3 s later).
    crawlSession.start('crawl_10', 'https://crumb.example');
    await act(() => vi.advanceTimersByTimeAsync(0));
    const second = TestSocket.all.at(-1)!;
    act(() => second.onopen?.());
    act(() => second.onclose?.({ code: 1006 }));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(TestSocket.all.at(-1)).not.toBe(second);
  });
});
