import type { CrawledUrlDto } from '@kesher/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CrawlerSettingsModal } from './crawler-settings-modal';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const longUrl = `https://crumb.example/${'a'.repeat(60)}`;

const url = (n: number, over: Partial<CrawledUrlDto> = {}): CrawledUrlDto => ({
  id: `url_${n}`,
  source_url: `https://crumb.example/page-${n}`,
  page_title: `Page ${n}`,
  character_count: 1200,
  file_size: 2048,
  last_crawled_at: '2026-11-20T10:00:00.000Z',
  training_status: 'trained',
  is_enabled: true,
  openai_file_id: `file_${n}`,
  filename: `page-${n}.html`,
  is_sales_page: false,
  sales_category: null,
  ...over,
});

/** The settings endpoints over 45 URLs (the first with a long address), filtered and paged as the server does; calls recorded. */
function stubApi() {
  const all = Array.from({ length: 45 }, (_, i) =>
    url(i + 1, i === 0 ? { source_url: longUrl, training_status: 'pending' } : i === 1 ? { is_enabled: false } : {}),
  );
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const address = new URL(input, 'http://x');
      const call = `${init.method} ${address.pathname.replace('/api/v1', '')}`;
      calls.push({ call: `${call}${address.search}`, body: init.body ? JSON.parse(String(init.body)) : null });
      if (call === 'GET /crawler-settings/assistant/7/stats')
        return json({
          total_urls: 45,
          disabled_urls: 1,
          total_characters: 54000,
          total_size_bytes: 92160,
          last_crawl_time: null,
        });
      if (call === 'GET /crawler-settings/assistant/7/urls') {
        const q = address.searchParams;
        let list = all;
        if (q.get('is_enabled')) list = list.filter((u) => String(u.is_enabled) === q.get('is_enabled'));
        if (q.get('search')) list = list.filter((u) => u.source_url.includes(q.get('search')!));
        const skip = Number(q.get('skip'));
        return json({ urls: list.slice(skip, skip + Number(q.get('limit'))), total: list.length });
      }
      if (call === 'POST /crawler-settings/url/url_3/toggle')
        return json({ ...url(3), is_enabled: false, message: 'URL disabled' });
      if (call === 'DELETE /crawler-settings/assistant/7/urls')
        return json({ message: 'Deleted 2 URL(s).', deleted_count: 2 });
      if (call === 'GET /crawler-settings/url/url_4/content')
        return json({
          content: 'URL: https://crumb.example/page-4\nFresh bread daily.',
          source_url: 'https://crumb.example/page-4',
          page_title: 'Page 4',
        });
      if (call === 'GET /crawler-settings/url/url_5/content')
        return json({ error: 'The content of this page is not available.' });
      return json({ detail: 'Not Found' }, 404);
    }),
  );
  return calls;
}

const assistant = { id: 7, name: 'Crumb' };

describe('CrawlerSettingsModal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the stats and 20 URLs a page (addresses cut at 50 characters), pages on, filters and searches', async () => {
    const calls = stubApi();
    renderWithProviders(<CrawlerSettingsModal assistant={assistant} onClose={vi.fn()} />);
    expect(await screen.findByText('Page 20')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('Characters', { selector: 'dt' }).nextSibling).toHaveTextContent('54,000');
    expect(screen.getByRole('link', { name: `${longUrl.slice(0, 50)}...` })).toHaveAttribute('href', longUrl);
    expect(screen.getByText('Pending')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 21')).toBeInTheDocument();
    expect(calls.some((c) => c.call.includes('skip=20&limit=20'))).toBe(true);
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'disabled' } });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(calls.some((c) => c.call.includes('is_enabled=false') && c.call.includes('skip=0'))).toBe(true);
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Search pages'), { target: { value: 'page-44' } });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.getByText('Page 44')).toBeInTheDocument();
  });

  it('toggles a URL, and deletes the chosen ones only after the confirmation', async () => {
    const calls = stubApi();
    renderWithProviders(<CrawlerSettingsModal assistant={assistant} onClose={vi.fn()} />);
    const row3 = (await screen.findByText('Page 3')).closest('tr')!;
    fireEvent.click(within(row3).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.map((c) => c.call)).toContain('POST /crawler-settings/url/url_3/toggle'));
    fireEvent.click(screen.getByLabelText('Select https://crumb.example/page-3'));
    fireEvent.click(screen.getByLabelText('Select https://crumb.example/page-4'));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected (2)' }));
    expect(screen.getByText('Are you sure you want to delete 2 URL(s)?')).toBeInTheDocument();
    expect(calls.some((c) => c.call.startsWith('DELETE'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.find((c) => c.call.startsWith('DELETE'))?.body).toEqual({ url_ids: ['url_3', 'url_4'] }),
    );
    await waitFor(() => expect(screen.queryByText('Are you sure you want to delete 2 URL(s)?')).toBeNull());
  });

  it("views a page's file, and says when it has none", async () => {
    stubApi();
    renderWithProviders(<CrawlerSettingsModal assistant={assistant} onClose={vi.fn()} />);
    fireEvent.click(
      within((await screen.findByText('Page 4')).closest('tr')!).getByRole('button', { name: 'View file' }),
    );
    expect(await screen.findByText(/Fresh bread daily\./)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(
      within((await screen.findByText('Page 5')).closest('tr')!).getByRole('button', { name: 'View file' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The content of this page is not available.');
  });
});
