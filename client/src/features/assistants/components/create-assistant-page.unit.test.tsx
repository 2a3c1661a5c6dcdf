import '../locales';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { CreateAssistantPage } from './create-assistant-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('CreateAssistantPage with a website', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts the crawl after creating, hands its id over for the progress panel and goes to the dashboard at once', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ assistant_id: 41, openai_assistant_id: 'asst_abcdefghijklmnopqrstuvwx', failed_functions: [] }),
      ),
    );
    const startCrawler = vi.fn(async () => ({ crawlId: 'crawl_9' }));
    const onCrawlStarted = vi.fn();
    const { router } = renderRoutes(
      [
        {
          path: '/create-assistant',
          element: (
            <CreateAssistantPage
              upload={vi.fn()}
              fileInput={() => null}
              startCrawler={startCrawler}
              onCrawlStarted={onCrawlStarted}
            />
          ),
        },
        { path: '/dashboard', element: <p>dashboard</p> },
      ],
      { path: '/create-assistant' },
    );
    fireEvent.change(await screen.findByLabelText('Assistant name *'), { target: { value: 'Crumb' } });
    fireEvent.change(screen.getByLabelText('Description *'), { target: { value: 'A bakery' } });
    fireEvent.change(screen.getByLabelText('Instructions *'), { target: { value: 'Be kind' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Scan this website automatically (smart crawler)' }));
    fireEvent.change(screen.getByLabelText('Website URL'), { target: { value: ' https://crumb.example ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Assistant' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(startCrawler).toHaveBeenCalledWith(41, 'https://crumb.example');
    await waitFor(() => expect(onCrawlStarted).toHaveBeenCalledWith('crawl_9', 'https://crumb.example'));
  });
});
