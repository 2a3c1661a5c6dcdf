import type { AssistantDto } from '@kesher/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Component as EditAssistantRoute } from '@/app/routes/edit-assistant';
import { crawlSession } from '@/features/crawler/crawl-session';
import { toastStore } from '@/lib/toast-store';
import { renderRoutes } from '@/test/render';

const stored = (overrides: Partial<AssistantDto> = {}): AssistantDto => ({
  id: 7,
  name: 'Crumb',
  description: 'A bakery',
  instructions: 'Be kind',
  chat_limit: 100,
  website_url: null,
  avatar_url: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  user_id: 'u1',
  openai_assistant_id: 'asst_abcdefghijklmnopqrstuvwx',
  share_token: null,
  telegram_integration: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 50, max_depth: 5, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
  ...overrides,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** A stand-in API: the stored assistant, its update, and the crawler start (answering `crawler` or failing). */
function serve(assistant: AssistantDto, crawler: { crawlId: string } | 'fails') {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace('/api/v1', '');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      calls.push({ method, path, body });
      if (method === 'GET' && path === '/assistants/7') return json(assistant);
      if (method === 'PUT' && path === '/assistants/7')
        return json({
          ...assistant,
          ...body,
          web_crawler: body.web_crawler,
          payment_processing: body.payment_processing,
        });
      if (method === 'POST' && path === '/web-crawler/') {
        if (crawler === 'fails') return json({ detail: 'Failed to configure crawler' }, 500);
        return json({
          success: true,
          message: 'Crawl started',
          data: {
            crawl_id: crawler.crawlId,
            crawler_config_id: 'cfg_1',
            assistant_id: 7,
            website_url: body.website_url,
            crawl_interval: body.crawl_interval,
            status: 'starting',
          },
        });
      }
      return json({ detail: 'Not found' }, 404);
    }),
  );
  return calls;
}

function renderEdit(language: 'en' | 'he' = 'en') {
  return renderRoutes(
    [
      { path: '/edit-assistant/:assistantId', element: <EditAssistantRoute /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { path: '/edit-assistant/7', language },
  );
}

describe('the edit form’s crawler toggle (spec §2, §4, §9)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    crawlSession.clear();
  });

  it('turned on with a website: saves, starts the crawl with the edit defaults and hands it to the progress panel on the dashboard', async () => {
    const calls = serve(stored(), { crawlId: 'crawl_edit_1' });
    const { router } = renderEdit();
    fireEvent.click(await screen.findByRole('switch', { name: 'Enable web crawler' }));
    fireEvent.change(screen.getByLabelText('Website URL'), { target: { value: ' https://crumb.example ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');

    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.body).toMatchObject({
      web_crawler: { enabled: true, website_url: 'https://crumb.example', max_pages: 50, max_depth: 5 },
    });
    const start = calls.filter((call) => call.path === '/web-crawler/');
    expect(start).toHaveLength(1);
    // pages: 'held' — pages the assistant already holds of this site are refreshed, not the whole site added (issue 22 item 9).
    expect(start[0]!.body).toEqual({
      assistant_id: 7,
      website_url: 'https://crumb.example',
      crawl_interval: '24h',
      max_pages: 50,
      max_depth: 5,
      delete_orphaned_pages: false,
      start_crawl: true,
      pages: 'held',
    });
    expect(calls.indexOf(put)).toBeLessThan(calls.indexOf(start[0]!)); // the flag is saved before the crawl starts
    expect(crawlSession.get()).toMatchObject({ crawlId: 'crawl_edit_1', websiteUrl: 'https://crumb.example' });
  });

  it('saving an assistant whose crawler was already on for the same website starts no new crawl', async () => {
    const calls = serve(
      stored({
        web_crawler: {
          enabled: true,
          website_url: 'https://crumb.example',
          max_pages: 50,
          max_depth: 5,
          delete_orphaned_pages: false,
        },
      }),
      { crawlId: 'never' },
    );
    renderEdit();
    fireEvent.change(await screen.findByLabelText('Description *'), { target: { value: 'A bakery in Haifa' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/web-crawler/')).toBe(false);
    expect(crawlSession.get()).toBeNull();
  });

  it('turned off (Hebrew page): sales mode goes off with it, the flag is saved and nothing is crawled', async () => {
    const calls = serve(
      stored({
        web_crawler: {
          enabled: true,
          website_url: 'https://crumb.example',
          max_pages: 50,
          max_depth: 5,
          delete_orphaned_pages: false,
        },
        payment_processing: { enabled: true, sales_prompt: 'Sell' },
      }),
      { crawlId: 'never' },
    );
    renderEdit('he');
    const sales = await screen.findByRole('switch', { name: 'מצב מכירות' });
    expect(sales).toBeChecked();
    fireEvent.click(screen.getByRole('switch', { name: 'הפעלת סורק האתר' }));
    expect(sales).not.toBeChecked();
    expect(sales).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'שמירת שינויים' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.body).toMatchObject({ web_crawler: { enabled: false }, payment_processing: { enabled: false } });
    expect(calls.some((call) => call.path === '/web-crawler/')).toBe(false);
  });

  it('a crawler that cannot start only warns, in Hebrew on a Hebrew page; the assistant is saved', async () => {
    const calls = serve(stored(), 'fails');
    renderEdit('he');
    fireEvent.click(await screen.findByRole('switch', { name: 'הפעלת סורק האתר' }));
    fireEvent.change(screen.getByLabelText('כתובת האתר'), { target: { value: 'https://crumb.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'שמירת שינויים' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(true);
    await waitFor(() =>
      expect(toastStore.snapshot().map((toast) => toast.message)).toContain(
        'העוזר נשמר, אך סריקת האתר לא התחילה. נסו שוב עם "סריקה חוזרת" בהגדרות הסורק.',
      ),
    );
    expect(crawlSession.get()).toBeNull();
  });
});
