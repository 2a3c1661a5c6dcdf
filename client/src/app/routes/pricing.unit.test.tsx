import { plans } from '@kesher/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '@/lib/token-storage';
import { renderRoutes } from '@/test/render';
import { Component as Pricing } from './pricing';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the /pricing route', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows a signed-out visitor the marketing plans, whose paid buttons carry the plan through sign-in', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(404, { detail: 'Not found' })));
    renderRoutes([{ path: '/pricing', element: <Pricing /> }], { path: '/pricing' });
    const standard = (await screen.findByRole('heading', { name: 'Standard' })).closest('section')!;
    expect(within(standard).getByRole('link', { name: 'Get started' })).toHaveAttribute('href', `/login?redirect=${encodeURIComponent('/pricing?plan=pro&billing=monthly')}`);
    const premium = screen.getByRole('heading', { name: 'Premium' }).closest('section')!;
    expect(within(premium).getByRole('link', { name: 'Get started' })).toHaveAttribute('href', `/login?redirect=${encodeURIComponent('/pricing?plan=enterprise&billing=monthly')}`);
    const free = screen.getByRole('heading', { name: 'Free' }).closest('section')!;
    expect(within(free).getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/register');
  });

  it('shows a signed-in owner the server’s plans', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/v1/auth/me') return json(200, { uid: 'owner-1', email: 'dana@example.com', displayName: null, username: 'dana', photoURL: null, providerId: 'password' });
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
