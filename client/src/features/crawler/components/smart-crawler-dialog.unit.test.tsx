import type { CrawlerConfigDto, PreviewFileDto } from '@kesher/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { crawlSession } from '../crawl-session';
import { SmartCrawlerDialog } from './smart-crawler-dialog';

const assistant = { id: 7, name: 'Crumb bakery', website_url: null };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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
  crawl_result: { base_url: 'https://example.com', total_files: files.length, preview_files: files, sales_pages: files.filter((f) => f.is_sales_page), sales_pages_count: files.filter((f) => f.is_sales_page).length },
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

describe('SmartCrawlerDialog', () => {
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
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid URL (including http:// or https://)');
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
      'POST /web-crawler/': () => json({ success: true, message: 'Crawler configured', data: { crawl_id: null, crawler_config_id: 'cfg_1', assistant_id: 7, website_url: 'https://example.com', crawl_interval: '4h', status: null } }),
      'POST /web-crawler/smart-crawl-preview': async () => {
        await scanned;
        return json(previewAnswer(files));
      },
      'POST /web-crawler/smart-crawl-commit': () => json({ success: true, message: '26 pages added', assistant_id: 7, committed_files: 26, unchanged_files: 0, failed_files: [] }),
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

    const configure = calls.find((c) => c.call === 'POST /web-crawler/')!;
    expect(configure.body).toMatchObject({ assistant_id: 7, website_url: 'https://example.com', crawl_interval: '4h', start_crawl: false });
    expect(calls.find((c) => c.call === 'POST /web-crawler/smart-crawl-preview')!.body).toMatchObject({ website_url: 'https://example.com', keywords: [], max_depth: 2, focus_areas: [], assistant_id: 7 });
    const commit = calls.find((c) => c.call === 'POST /web-crawler/smart-crawl-commit')!.body as { selected_filenames: string[] };
    expect(commit).toMatchObject({ preview_id: 'preview_abc', assistant_id: 7 });
    expect(commit.selected_filenames).toHaveLength(26);
    expect(commit.selected_filenames).not.toContain('example.com-page-10.html');
  });

  it('presets the pages the assistant already holds, and refuses to commit nothing', async () => {
    stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'GET /assistants/7/crawler-pages': () => json({ selected_pages: [{ url: 'https://example.com/page-2', filename: 'x.html', title: null, is_enabled: true, is_sales_page: false }] }),
      'POST /web-crawler/': () => json({ success: true, message: 'Crawler configured', data: { crawl_id: null, crawler_config_id: 'cfg_1', assistant_id: 7, website_url: 'https://example.com', crawl_interval: '24h', status: null } }),
      'POST /web-crawler/smart-crawl-preview': () => json(previewAnswer([page(1), page(2), page(3)])),
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
        'POST /web-crawler/': () => json({ success: true, message: 'Crawler configured', data: { crawl_id: null, crawler_config_id: 'cfg_1', assistant_id: 7, website_url: 'https://example.com', crawl_interval: '24h', status: null } }),
        'POST /web-crawler/smart-crawl-preview': () => json(previewAnswer([page(1), page(2), page(3)])),
        'POST /web-crawler/smart-crawl-commit': () =>
          json({ success: true, message: '1 page added to the assistant. 1 unchanged. 1 not added: over the limit', assistant_id: 7, committed_files: 1, unchanged_files: 1, failed_files: [{ filename: page(3).filename, reason: 'over the limit' }] }),
      });
      const { unmount } = renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />, { language });
      fireEvent.change(await screen.findByLabelText(website), { target: { value: 'https://example.com' } });
      fireEvent.click(screen.getByRole('button', { name: language === 'en' ? 'Start Smart Crawling' : 'התחלת סריקה חכמה' }));
      expect(await screen.findByText(language === 'en' ? '3 selected' : '3 נבחרו')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: commit }));
      const status = await screen.findByRole('status');
      expect(status).toHaveTextContent(expected);
      expect(status).not.toHaveTextContent('added to the assistant.');
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it("says the server's reason when the scan fails, and 'No pages found' for an empty site", async () => {
    let answer = json({ detail: 'robots.txt of https://example.com forbids crawling it.' }, 422);
    stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'POST /web-crawler/': () => json({ success: true, message: 'Crawler configured', data: { crawl_id: null, crawler_config_id: 'cfg_1', assistant_id: 7, website_url: 'https://example.com', crawl_interval: '24h', status: null } }),
      'POST /web-crawler/smart-crawl-preview': () => answer,
    });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('robots.txt of https://example.com forbids crawling it.');
    answer = json(previewAnswer([]));
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No pages found to crawl. Please check the URL and try again.'));
  });

  it('shows an existing configuration; Crawl Again starts a crawl and opens the progress panel through session storage', async () => {
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: config }),
      'POST /web-crawler/': () => json({ success: true, message: 'Crawl started', data: { crawl_id: 'crawl_new', crawler_config_id: 'cfg_1', assistant_id: 7, website_url: 'https://crumb.example', crawl_interval: '8h', status: 'starting' } }),
    });
    const onClose = vi.fn();
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={onClose} />);
    expect(await screen.findByText('https://crumb.example')).toBeInTheDocument();
    expect(screen.getByText('Every 8 hours')).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Crawl Again' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.call === 'POST /web-crawler/')!.body).toMatchObject({ website_url: 'https://crumb.example', crawl_interval: '8h', start_crawl: true });
    expect(sessionStorage.getItem('activeCrawlId')).toBe('crawl_new');
    expect(crawlSession.get()).toMatchObject({ crawlId: 'crawl_new', websiteUrl: 'https://crumb.example' });
  });
  it('Add Missing Page: checks the address, fetches it, puts it on top selected, ignores a page already listed, closes after 1.5 s', async () => {
    const missing = { ...page(99), title: 'Hidden offer', url: 'https://example.com/hidden' };
    let answer = missing;
    const calls = stubApi({
      'GET /web-crawler/assistant/7': () => json({ success: true, data: null }),
      'GET /assistants/7/crawler-pages': () => json({ selected_pages: [] }),
      'POST /web-crawler/': () => json({ success: true, message: 'Crawler configured', data: { crawl_id: null, crawler_config_id: 'cfg_1', assistant_id: 7, website_url: 'https://example.com', crawl_interval: '24h', status: null } }),
      'POST /web-crawler/smart-crawl-preview': () => json(previewAnswer([page(1), page(2)])),
      'POST /web-crawler/fetch-single-url': () => json({ message: 'Page added.', preview_id: 'preview_abc', file_data: answer }),
    });
    renderWithProviders(<SmartCrawlerDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Smart Crawling' }));
    expect(await screen.findByText('2 selected')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Missing Page' }));
    const addDialog = screen.getByRole('dialog', { name: 'Add a missing page' });
    fireEvent.click(within(addDialog).getByRole('button', { name: 'Add page' }));
    expect(within(addDialog).getByRole('alert')).toHaveTextContent('Please enter a URL');
    fireEvent.change(within(addDialog).getByLabelText('Page URL'), { target: { value: 'https://example.com/hidden' } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(within(addDialog).getByRole('button', { name: 'Add page' }));
    expect(await within(addDialog).findByRole('status')).toHaveTextContent('Page added.');
    expect(calls.find((c) => c.call === 'POST /web-crawler/fetch-single-url')!.body).toEqual({ url: 'https://example.com/hidden', base_url: 'https://example.com', preview_id: 'preview_abc' });
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
