import { plans } from '@kesher/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '@/lib/token-storage';
import { renderRoutes } from '@/test/render';
import { Component as Pricing } from './pricing';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the /pricing route', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows a signed-out visitor the same catalogue as the limits use, whose paid buttons carry the plan through sign-in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/v1/subscriptions/plans'
          ? json(200, [plans.FREE, plans.PRO, plans.ENTERPRISE])
          : json(404, { detail: 'Not found' }),
      ),
    );
    const { router } = renderRoutes(
      [
        { path: '/pricing', element: <Pricing /> },
        { path: '/login', element: <p>login page</p> },
      ],
      { path: '/pricing' },
    );
    const free = (await screen.findByRole('heading', { name: 'Free' })).closest('section')!;
    // The free plan's real limits (one assistant, 5 files), not an advertised "1,000 documents per agent".
    expect(within(free).getByText('Files per assistant').nextElementSibling).toHaveTextContent(
      String(plans.FREE.limits.max_files),
    );
    expect(within(free).getByText('Messages per month').nextElementSibling).toHaveTextContent(
      String(plans.FREE.limits.max_messages_per_month),
    );
    expect(within(free).getByRole('link', { name: 'Get started free' })).toHaveAttribute('href', '/register');
    const pro = screen.getByRole('heading', { name: 'Pro' }).closest('section')!;
    expect(within(pro).getByText('₪199')).toBeInTheDocument();
    expect(screen.queryByText(/\$50|\$100|Standard|Premium/)).toBeNull();
    await userEvent.click(within(pro).getByRole('button', { name: 'Subscribe Now' }));
    await screen.findByText('login page');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/pricing?plan=pro&billing=monthly')}`);
  });

  it('shows a signed-in owner the server’s plans', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/v1/auth/me')
          return json(200, {
            uid: 'owner-1',
            email: 'dana@example.com',
            displayName: null,
            username: 'dana',
            photoURL: null,
            providerId: 'password',
          });
        if (url === '/api/v1/subscriptions/plans') return json(200, [plans.FREE, plans.PRO, plans.ENTERPRISE]);
        if (url === '/api/v1/subscriptions/status') return json(500, { detail: 'down' });
        return json(404, { detail: 'Not found' });
      }),
    );
    renderRoutes([{ path: '/pricing', element: <Pricing /> }], { path: '/pricing' });
    expect(await screen.findByRole('heading', { name: 'Choose your plan', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Subscribe Now' })).toHaveLength(2);
  });
});
