import type { CrawlerConfigDto, PreviewFileDto } from '@kesher/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { crawlSession } from '../crawl-session';
import { SmartCrawlerDialog } from './smart-crawler-dialog';

const assistant = { id: 7, name: 'Crumb bakery', website_url: null };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const page = (n: number, sales = false): PreviewFileDto => ({
  filename: `example.com-page-${n}.html`,
  title: sales ? `Pricing ${n}` : `Page ${n}`,
  url: `https://example.com/${sales ? 'pricing' : 'page'}-${n}`,
  size_kb: 3,
  relevance_score: 0.5,
  relevance_explanation: null,
  content_length: 1200,
  preview: `Preview of page ${n}`,
  content: `Text of page ${n}`,
  is_sales_page: sales,
  sales_category: sales ? 'pricing' : null,
  detection_reason: sales ? 'Prices on the page' : null,
  kind: 'html',
  depth: 1,
});

const previewAnswer = (files: PreviewFileDto[]) => ({
  success: true,
  message: 'Found',
  preview_id: 'preview_abc',
  assistant_id: 7,
  files_found: files.length,
  processed_files: files.length,
  total_files: files.length,
  preview_files: files,
  crawl_result: {
    base_url: 'https://example.com',
    total_files: files.length,
    preview_files: files,
    sales_pages: files.filter((f) => f.is_sales_page),
    sales_pages_count: files.filter((f) => f.is_sales_page).length,
  },
});

const config: CrawlerConfigDto = {
  id: 'cfg_1',
  assistant_id: 7,
  website_url: 'https://crumb.example',
  crawl_interval: '8h',
  schedule_paused_reason: null,
  max_pages: 50,
  max_depth: 5,
  delete_orphaned_pages: false,
  last_crawled: '2026-11-20T10:00:00.000Z',
  files_count: 12,
  next_crawl_at: null,
  last_crawl_id: 'crawl_old',
  last_crawl_status: 'completed',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** The crawler's endpoints as the server answers them (each test says how); every call is recorded with its body. */
function stubApi(routes: Record<string, Handler>) {
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const call = `${init.method} ${url.replace('/api/v1', '')}`;
      calls.push({ call, body: init.body ? JSON.parse(String(init.body)) : null });
      const handler = routes[call];
      if (!handler) return json({ detail: 'Not Found' }, 404);
      return handler(url, init);
    }),
  );
  return calls;
}

/**
 * The preview job as the server runs it: started at once (202), its end said over the progress socket,
 * its answer (or the scan's failure) fetched from the job; `answer` is what the spec's one call would say.
 */
function previewJob(answer: () => Response | Promise<Response>): Record<string, Handler> {
  return {
    'POST /web-crawler/smart-crawl-preview/jobs': () =>
      json({ success: true, preview_id: 'preview_abc', status: 'starting' }, 202),
    'GET /web-crawler/smart-crawl-preview/jobs/preview_abc': async () => {
      const response = await answer();
      if (response.status !== 200) return response;
      return json({ status: 'completed', preview_id: 'preview_abc', result: await response.json() });
    },
  };
}

/** The progress socket: says the scan ended as soon as it is opened. */
class EndedScanSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    setTimeout(() => {
      this.onopen?.();
      this.onmessage?.({
        data: JSON.stringify({
          type: 'crawl_progress',
          crawl_id: 'preview_abc',
          status: 'completed',
          pages_discovered: 3,
          pages_processed: 3,
          pages_linked_to_assistant: 0,
          progress_percentage: 100,
          current_url: null,
          estimated_total: 3,
          duration: 1,
          assistant_name: null,
          message: null,
        }),
      });
    }, 0);
  }
  close() {}
}

describe('SmartCrawlerDialog', () => {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', EndedScanSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    crawlSession.clear();
  });

  it('checks the website field before calling the server', async () => {
    const calls = stubApi({ 'GET /web-crawler/assistant/7': () => json({ success: true, data: null }) });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a website URL');
    fireEvent.change(screen.getByLabelText('Website URL'), { target: { value: 'ftp://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please enter a valid URL (including http:// or https://)',
    );
    expect(calls.map((c) => c.call)).toEqual(['GET /web-crawler/assistant/7']);
    // The form shows the frequency (24 hours by default) and the feature list.
    expect(screen.getByLabelText<HTMLSelectElement>('Crawl Frequency').value).toBe('24h');
    expect(screen.getByText('Content relevance scoring')).toBeInTheDocument();
  });

  it('saves the crawler, scans (Setting up...), then lists sales pages apart, 20 at a time, and commits the choice', async () => {
    let release: () => void = () => undefined;
    const scanned = new Promise<void>((resolve) => (release = resolve));
    const files = [page(1, true), page(2, true), ...Array.from({ length: 25 }, (_, i) => page(i + 10))];
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'GET /assistants/7/crawler-pages': () => json({ selected_pages: [] }),
      'POST /web-crawler/': () =>
        json({
          success: true,
          message: 'Crawler configured',
          data: {
            crawl_id: null,
            crawler_config_id: 'cfg_1',
            assistant_id: 7,
            website_url: 'https://example.com',
            crawl_interval: '4h',
            status: null,
          },
        }),
      ...previewJob(async () => {
        await scanned;
        return json(previewAnswer(files));
      }),
      'POST /web-crawler/smart-crawl-commit': () =>
        json({
          success: true,
          message: '26 pages added',
          assistant_id: 7,
          committed_files: 26,
          unchanged_files: 0,
          failed_files: [],
        }),
    });
    const onClose = vi.fn();
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: '  https://example.com  ' } });
    fireEvent.change(screen.getByLabelText('Crawl Frequency'), { target: { value: '4h' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByRole('button', { name: 'Setting up...' })).toBeDisabled();
    release();

    const sales = await screen.findByRole('region', { name: 'Sales pages' });
    expect(within(sales).getAllByRole('checkbox')).toHaveLength(2);
    expect(within(sales).getAllByText('Pricing')).toHaveLength(2);
    const regular = screen.getByRole('region', { name: 'Pages' });
    expect(within(regular).getAllByRole('checkbox')).toHaveLength(20);
    fireEvent.click(within(regular).getByRole('button', { name: 'Show more (5)' }));
    expect(within(regular).getAllByRole('checkbox')).toHaveLength(25);
    fireEvent.click(within(regular).getByRole('button', { name: 'Show less' }));
    expect(within(regular).getAllByRole('checkbox')).toHaveLength(20);

    // Everything is preset (the assistant holds no pages yet); one page is taken out.
    expect(await screen.findByText('27 selected')).toBeInTheDocument();
    fireEvent.click(within(regular).getByLabelText('Page 10'));
    fireEvent.click(within(regular).getAllByRole('button', { name: 'Show text' })[1]!);
    expect(within(regular).getByText('Text of page 11')).toBeInTheDocument();

    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Add selected pages' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Pages added to the assistant: 26.');
    expect(onClose).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(onClose).toHaveBeenCalledTimes(1);

    // The scan first; the site is saved only once it found pages.
    const order = calls.map((c) => c.call);
    expect(order.indexOf('POST /web-crawler/smart-crawl-preview/jobs')).toBeLessThan(
      order.indexOf('POST /web-crawler/'),
    );
    const configure = calls.find((c) => c.call === 'POST /web-crawler/')!;
    expect(configure.body).toMatchObject({
      assistant_id: 7,
      website_url: 'https://example.com',
      crawl_interval: '4h',
      start_crawl: false,
    });
    expect(calls.find((c) => c.call === 'POST /web-crawler/smart-crawl-preview/jobs')!.body).toMatchObject({
      website_url: 'https://example.com',
      keywords: [],
      max_depth: 2,
      focus_areas: [],
      assistant_id: 7,
    });
    const commit = calls.find((c) => c.call === 'POST /web-crawler/smart-crawl-commit')!.body as {
      selected_filenames: string[];
    };
    expect(commit).toMatchObject({ preview_id: 'preview_abc', assistant_id: 7 });
    expect(commit.selected_filenames).toHaveLength(26);
    expect(commit.selected_filenames).not.toContain('example.com-page-10.html');
  });

  it('presets the pages the assistant already holds, and refuses to commit nothing', async () => {
    stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'GET /assistants/7/crawler-pages': () =>
        json({
          selected_pages: [
            {
              url: 'https://example.com/page-2',
              filename: 'x.html',
              title: null,
              is_enabled: true,
              is_sales_page: false,
            },
          ],
        }),
      'POST /web-crawler/': () =>
        json({
          success: true,
          message: 'Crawler configured',
          data: {
            crawl_id: null,
            crawler_config_id: 'cfg_1',
            assistant_id: 7,
            website_url: 'https://example.com',
            crawl_interval: '24h',
            status: null,
          },
        }),
      ...previewJob(() => json(previewAnswer([page(1), page(2), page(3)]))),
    });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByText('1 selected')).toBeInTheDocument();
    expect(screen.getByLabelText<HTMLInputElement>('Page 2').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Page 1').checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('button', { name: 'Add selected pages' })).toBeDisabled();
  });

  it('says the commit summary from its numbers, in English and in Hebrew — never the server’s English sentence', async () => {
    for (const [language, website, commit, expected] of [
      ['en', 'Website URL', 'Add selected pages', 'Pages added to the assistant: 1. Unchanged: 1. Not added: 1.'],
      ['he', 'כתובת האתר', 'הוספת הדפים שנבחרו', 'דפים שנוספו לעוזר: 1. ללא שינוי: 1. לא נוספו: 1.'],
    ] as const) {
      stubApi({
        'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
        'GET /assistants/7/crawler-pages': () => json({ selected_pages: [] }),
        'POST /web-crawler/': () =>
          json({
            success: true,
            message: 'Crawler configured',
            data: {
              crawl_id: null,
              crawler_config_id: 'cfg_1',
              assistant_id: 7,
              website_url: 'https://example.com',
              crawl_interval: '24h',
              status: null,
            },
          }),
        ...previewJob(() => json(previewAnswer([page(1), page(2), page(3)]))),
        'POST /web-crawler/smart-crawl-commit': () =>
          json({
            success: true,
            message: '1 page added to the assistant. 1 unchanged. 1 not added: over the limit',
            assistant_id: 7,
            committed_files: 1,
            unchanged_files: 1,
            failed_files: [{ filename: page(3).filename, reason: 'over the limit' }],
          }),
      });
      const { unmount } = renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />, {
        language,
      });
      fireEvent.change(await screen.findByLabelText(website), { target: { value: 'https://example.com' } });
      fireEvent.click(
        screen.getByRole('button', { name: language === 'en' ? 'Start Smart Crawling' : 'התחלת סריקה חכמה' }),
      );
      expect(await screen.findByText(language === 'en' ? '3 selected' : '3 נבחרו')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: commit }));
      const status = await screen.findByRole('status');
      expect(status).toHaveTextContent(expected);
      expect(status).not.toHaveTextContent('added to the assistant.');
      unmount();
      vi.unstubAllGlobals();
      vi.stubGlobal('WebSocket', EndedScanSocket);
    }
  });

  it("says the server's reason when the scan fails, keeps the form and saves nothing; 'No pages found' for an empty site", async () => {
    let answer = json({ detail: 'The site example.com could not be reached.' }, 422);
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'POST /web-crawler/': () =>
        json({
          success: true,
          message: 'Crawler configured',
          data: {
            crawl_id: null,
            crawler_config_id: 'cfg_1',
            assistant_id: 7,
            website_url: 'https://example.com',
            crawl_interval: '24h',
            status: null,
          },
        }),
      ...previewJob(() => answer),
    });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The site example.com could not be reached.');
    // The form stays, with the address to fix; nothing was configured (no dead address on a schedule).
    expect(screen.getByLabelText<HTMLInputElement>('Website URL').value).toBe('https://example.com');
    expect(screen.getByRole('button', { name: 'Start Smart Crawling' })).toBeEnabled();
    expect(calls.map((c) => c.call)).not.toContain('POST /web-crawler/');
    answer = json(previewAnswer([]));
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'No pages found to crawl. Please check the URL and try again.',
      ),
    );
    expect(calls.map((c) => c.call)).not.toContain('POST /web-crawler/');
  });

  it('says the scan failure in Hebrew', async () => {
    stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      ...previewJob(() => json({ detail: 'The site example.com could not be reached.' }, 422)),
    });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />, { language: 'he' });
    fireEvent.change(await screen.findByLabelText('כתובת האתר'), { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'התחלת סריקה חכמה' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('לא הצלחנו להגיע לאתר example.com.');
  });

  it('lets the owner change or remove a saved website', async () => {
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: config }),
      'DELETE /web-crawler/cfg_1': () => json({ success: true, message: 'Crawler deleted' }),
    });
    const onClose = vi.fn();
    const { unmount } = renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={onClose} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change website' }));
    // The form, filled with the saved site and frequency; Cancel goes back to the saved configuration.
    expect(screen.getByLabelText<HTMLInputElement>('Website URL').value).toBe('https://crumb.example');
    expect(screen.getByLabelText<HTMLSelectElement>('Crawl Frequency').value).toBe('8h');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove website' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove website' });
    expect(confirm).toHaveTextContent('Remove https://crumb.example from this assistant?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.map((c) => c.call)).toContain('DELETE /web-crawler/cfg_1');
    unmount();
  });

  it('shows an existing configuration; Crawl Again starts a crawl and opens the progress panel through session storage', async () => {
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: config }),
      'POST /web-crawler/': () =>
        json({
          success: true,
          message: 'Crawl started',
          data: {
            crawl_id: 'crawl_new',
            crawler_config_id: 'cfg_1',
            assistant_id: 7,
            website_url: 'https://crumb.example',
            crawl_interval: '8h',
            status: 'starting',
          },
        }),
    });
    const onClose = vi.fn();
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={onClose} />);
    expect(await screen.findByText('https://crumb.example')).toBeInTheDocument();
    expect(screen.getByText('Every 8 hours')).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Crawl Again' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.call === 'POST /web-crawler/')!.body).toMatchObject({
      website_url: 'https://crumb.example',
      crawl_interval: '8h',
      start_crawl: true,
    });
    expect(sessionStorage.getItem('activeCrawlId')).toBe('crawl_new');
    expect(crawlSession.get()).toMatchObject({ crawlId: 'crawl_new', websiteUrl: 'https://crumb.example' });
  });
  it('Add Missing Page: checks the address, fetches it, puts it on top selected, ignores a page already listed, closes after 1.5 s', async () => {
    const missing = { ...page(99), title: 'Hidden offer', url: 'https://example.com/hidden' };
    let answer = missing;
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'GET /assistants/7/crawler-pages': () => json({ selected_pages: [] }),
      'POST /web-crawler/': () =>
        json({
          success: true,
          message: 'Crawler configured',
          data: {
            crawl_id: null,
            crawler_config_id: 'cfg_1',
            assistant_id: 7,
            website_url: 'https://example.com',
            crawl_interval: '24h',
            status: null,
          },
        }),
      ...previewJob(() => json(previewAnswer([page(1), page(2)]))),
      'POST /web-crawler/fetch-single-url': () =>
        json({ message: 'Page added.', preview_id: 'preview_abc', file_data: answer }),
    });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByText('2 selected')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Missing Page' }));
    const addDialog = screen.getByRole('dialog', { name: 'Add a missing page' });
    // Nothing to add while the field is empty (issue 22 item 16: the button waits for an address).
    expect(within(addDialog).getByRole('button', { name: 'Add page' })).toBeDisabled();
    fireEvent.change(within(addDialog).getByLabelText('Page URL'), { target: { value: 'https://example.com/hidden' } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(within(addDialog).getByRole('button', { name: 'Add page' }));
    expect(await within(addDialog).findByRole('status')).toHaveTextContent('Page added.');
    expect(calls.find((c) => c.call === 'POST /web-crawler/fetch-single-url')!.body).toEqual({
      url: 'https://example.com/hidden',
      base_url: 'https://example.com',
      preview_id: 'preview_abc',
    });
    const regular = screen.getByRole('region', { name: 'Pages' });
    expect(within(regular).getAllByRole('checkbox')[0]).toHaveAccessibleName('Hidden offer');
    expect(screen.getByLabelText<HTMLInputElement>('Hidden offer').checked).toBe(true);
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(screen.queryByRole('dialog', { name: 'Add a missing page' })).toBeNull();
    // The same address again changes nothing.
    answer = { ...missing, filename: 'other-name.html' };
    fireEvent.click(screen.getByRole('button', { name: 'Add Missing Page' }));
    fireEvent.change(screen.getByLabelText('Page URL'), { target: { value: 'https://example.com/hidden' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add page' }));
    expect(await screen.findByText('Page added.')).toBeInTheDocument();
    expect(within(regular).getAllByRole('checkbox')).toHaveLength(3);
  });
});
