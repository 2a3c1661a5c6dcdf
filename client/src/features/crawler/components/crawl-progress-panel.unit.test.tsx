import type { CrawlProgressMessage } from '@kesher/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { crawlSession } from '../crawl-session';
import { CrawlProgressPanel } from './crawl-progress-panel';

/** A stand-in for the browser's WebSocket that the test drives: open, send a message, drop. */
class TestSocket {
  static all: TestSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    TestSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    act(() => this.onopen?.());
  }
  send(message: Partial<CrawlProgressMessage>) {
    const full: CrawlProgressMessage = {
      type: 'crawl_progress',
      crawl_id: 'crawl_1',
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
  drop() {
    act(() => {
      this.onerror?.();
      this.onclose?.();
    });
  }
}

describe('CrawlProgressPanel', () => {
  beforeEach(() => {
    TestSocket.all = [];
    vi.stubGlobal('WebSocket', TestSocket);
    localStorage.setItem('firebaseToken', 'a-long-enough-token');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    crawlSession.clear();
  });

  it('shows nothing when no crawl is being watched', () => {
    renderWithProviders(<CrawlProgressPanel />);
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(TestSocket.all).toHaveLength(0);
  });

  it('comes back from session storage after a reload, follows the socket live, and closes 3 s after completion', async () => {
    // What the three entries hold after a reload: the panel reads them on its own.
    sessionStorage.setItem('activeCrawlId', 'crawl_1');
    sessionStorage.setItem('activeCrawlUrl', 'https://crumb.example');
    sessionStorage.setItem('crawlStartTime', String(Date.now()));
    const onCompleted = vi.fn();
    renderWithProviders(<CrawlProgressPanel onCompleted={onCompleted} />);
    const panel = screen.getByRole('complementary', { name: 'Crawl progress' });
    expect(panel).toHaveTextContent('Crawling https://crumb.example');
    expect(screen.getByText('Connecting...')).toBeInTheDocument();
    const socket = TestSocket.all[0]!;
    expect(socket.url).toBe(`ws://${window.location.host}/api/v1/ws/crawl-progress/crawl_1?token=a-long-enough-token`);

    socket.open();
    expect(screen.getByText('Connected')).toBeInTheDocument();
    socket.send({
      status: 'crawling',
      progress_percentage: 30,
      pages_processed: 20,
      estimated_total: 30,
      current_url: 'https://crumb.example/about',
      duration: 12.4,
    });
    expect(panel).toHaveTextContent('Crawling · 30%');
    expect(panel).toHaveTextContent('Current page: https://crumb.example/about');
    expect(screen.getByText('Expected pages').nextSibling).toHaveTextContent('30');
    expect(screen.getByText('Crawled pages').nextSibling).toHaveTextContent('20');
    expect(screen.getByText('Duration').nextSibling).toHaveTextContent('12s');

    fireEvent.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(screen.queryByText('Expected pages')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand' }));

    vi.useFakeTimers();
    socket.send({
      status: 'completed',
      progress_percentage: 100,
      pages_processed: 30,
      pages_linked_to_assistant: 28,
      message: "28 pages added to the assistant's knowledge.",
      completion: { added: 28, unchanged: 0, removed: 0, not_added: 0, not_added_reason: null },
    });
    expect(onCompleted).toHaveBeenCalledTimes(1);
    expect(panel).toHaveTextContent('Completed · 100%');
    expect(panel).toHaveTextContent('Pages added to the assistant: 28.');
    expect(screen.getByRole('button', { name: 'Done' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(screen.getByRole('complementary')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(sessionStorage.getItem('activeCrawlId')).toBeNull();
    expect(sessionStorage.getItem('crawlStartTime')).toBeNull();
  });

  it('says a dropped connection, reconnects, and shows a failed crawl with its reason and Close', async () => {
    crawlSession.start('crawl_2', 'https://crumb.example');
    vi.useFakeTimers();
    renderWithProviders(<CrawlProgressPanel />);
    const first = TestSocket.all[0]!;
    first.open();
    first.drop();
    expect(screen.getByRole('alert')).toHaveTextContent('Connection error. Progress updates may be delayed.');
    expect(screen.getByText('Disconnected')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    const second = TestSocket.all[1]!;
    expect(second.url).toContain('/ws/crawl-progress/crawl_2');
    second.open();
    second.send({
      type: 'error',
      status: 'error',
      crawl_id: 'crawl_2',
      message: 'The crawl could not be finished: it failed several times. Please try again later.',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The crawl could not be finished');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(sessionStorage.getItem('activeCrawlId')).toBeNull();
  });

  it('lets a remembered crawl the server does not know go (no everlasting "Crawling… 0%"), and shows one that ended meanwhile', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        if (url.endsWith('/web-crawler/crawls/crawl_gone'))
          return new Response(JSON.stringify({ detail: 'Crawl not found.', code: 'crawler.crawlNotFound' }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          });
        const ended = {
          type: 'crawl_progress',
          crawl_id: 'crawl_ended',
          status: 'completed',
          pages_discovered: 9,
          pages_processed: 9,
          pages_linked_to_assistant: 9,
          progress_percentage: 100,
          current_url: null,
          estimated_total: 9,
          duration: 30,
          assistant_name: 'Crumb',
          message: null,
          completion: { added: 9, unchanged: 0, removed: 0, not_added: 0, not_added_reason: null },
        };
        return new Response(JSON.stringify(ended), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    // A crawl id left in the tab from another owner's session: the socket is refused before it opens.
    crawlSession.start('crawl_gone', 'https://crumb.example');
    const { unmount } = renderWithProviders(<CrawlProgressPanel />);
    TestSocket.all[0]!.drop();
    await waitFor(() => expect(screen.queryByRole('complementary')).toBeNull());
    expect(asked.some((url) => url.endsWith('/api/v1/web-crawler/crawls/crawl_gone'))).toBe(true);
    expect(sessionStorage.getItem('activeCrawlId')).toBeNull();
    unmount();

    // One that ended while nobody watched: its end is shown (and the panel closes itself as usual).
    crawlSession.start('crawl_ended', 'https://crumb.example');
    renderWithProviders(<CrawlProgressPanel />);
    TestSocket.all.at(-1)!.drop();
    expect(await screen.findByText('Pages added to the assistant: 9.')).toBeInTheDocument();
    expect(screen.getByRole('complementary')).toHaveTextContent('Completed · 100%');
  });

  it('says the completion summary in English from its numbers: added, unchanged, removed, not added', () => {
    crawlSession.start('crawl_4', 'https://crumb.example');
    renderWithProviders(<CrawlProgressPanel />);
    const socket = TestSocket.all[0]!;
    socket.open();
    socket.send({
      crawl_id: 'crawl_4',
      status: 'completed',
      progress_percentage: 100,
      pages_linked_to_assistant: 15,
      message:
        "12 pages added to the assistant's knowledge, 3 unchanged, 1 removed (no longer on the site). 2 not added: Please select at least one file to upload",
      completion: {
        added: 12,
        unchanged: 3,
        removed: 1,
        not_added: 2,
        not_added_reason: 'Please select at least one file to upload',
      },
    });
    expect(screen.getByRole('complementary')).toHaveTextContent(
      'Pages added to the assistant: 12. Unchanged: 3. Removed (no longer on the site): 1. Not added: 2. Please select at least one file to upload',
    );
  });

  it('says the completion summary in Hebrew on a Hebrew page, never the server’s English sentence', () => {
    crawlSession.start('crawl_5', 'https://crumb.example');
    renderWithProviders(<CrawlProgressPanel />, { language: 'he' });
    document.documentElement.lang = 'he';
    const socket = TestSocket.all[0]!;
    socket.open();
    socket.send({
      crawl_id: 'crawl_5',
      status: 'completed',
      progress_percentage: 100,
      pages_linked_to_assistant: 4,
      message:
        "1 page added to the assistant's knowledge, 3 unchanged. 2 not added: Please select at least one file to upload",
      completion: {
        added: 1,
        unchanged: 3,
        removed: 0,
        not_added: 2,
        not_added_reason: 'Please select at least one file to upload',
      },
    });
    const panel = screen.getByRole('complementary');
    expect(panel).toHaveTextContent('דפים שנוספו לעוזר: 1. ללא שינוי: 3. לא נוספו: 2. אנא בחרו לפחות קובץ אחד להעלאה');
    expect(panel).not.toHaveTextContent('added to the assistant');
    expect(panel).not.toHaveTextContent('unchanged');
    document.documentElement.lang = 'en';
  });

  it('is in Hebrew on a Hebrew page, the server reason included', () => {
    crawlSession.start('crawl_3', 'https://crumb.example');
    renderWithProviders(<CrawlProgressPanel />, { language: 'he' });
    document.documentElement.lang = 'he';
    const socket = TestSocket.all[0]!;
    socket.open();
    socket.send({
      type: 'error',
      status: 'error',
      crawl_id: 'crawl_3',
      message: 'No pages found to crawl. Please check the URL and try again.',
    });
    expect(screen.getByText('מחובר')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('לא נמצאו דפים לסריקה');
    document.documentElement.lang = 'en';
  });
});
