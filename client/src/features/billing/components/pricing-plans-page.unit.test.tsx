import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { tokenStorage } from '@/lib/token-storage';
import { PricingPlansPage } from './pricing-plans-page';
import { catalogue, freeStatus, json, proStatus, serve } from '@/test/billing-test-server';

const signIn = () => tokenStorage.set('a-session-token-for-tests', 'owner-1');
const render = (path = '/pricing', language: 'en' | 'he' = 'en', signedIn = true) =>
  renderRoutes(
    [
      { path: '/pricing', element: <PricingPlansPage signedIn={signedIn} /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { path, language },
  );
const card = (name: string) => screen.getByRole('heading', { name, level: 2 }).closest('section')!;

describe('/pricing from the server’s plans', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the plans with monthly prices and the trial, then yearly prices with "Save 17%"', async () => {
    signIn();
    serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Choose your plan', level: 1 })).toBeInTheDocument();
    expect(within(card('Pro')).getByText('₪199')).toBeInTheDocument();
    expect(within(card('Pro')).getByText('14-day free trial')).toBeInTheDocument();
    expect(within(card('Enterprise')).getByText('₪799')).toBeInTheDocument();
    const yearly = screen.getByRole('button', { name: /Yearly/ });
    expect(within(yearly).getByText('Save 17%')).toBeInTheDocument();
    await userEvent.click(yearly);
    expect(yearly).toHaveAttribute('aria-pressed', 'true');
    expect(within(card('Pro')).getByText('₪1,990')).toBeInTheDocument();
    expect(within(card('Pro')).getByText('/year')).toBeInTheDocument();
    expect(within(card('Pro')).queryByText('14-day free trial')).toBeNull(); // the trial is on monthly billing
    // The free plan is the owner's current plan.
    expect(within(card('Free')).getByRole('button', { name: 'Current plan' })).toBeDisabled();
  });

  it('shows the comparison table’s limits for each plan', async () => {
    signIn();
    serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
    });
    render();
    const table = await screen.findByRole('table');
    const row = (label: string) =>
      within(within(table).getByRole('rowheader', { name: label }).closest('tr')!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(row('Assistants')).toEqual(['1', '10', '100']);
    expect(row('Messages per month')).toEqual(['100', '5,000', '50,000']);
    expect(row('Files per assistant')).toEqual(['5', '50', '500']);
    expect(row('Website pages crawled')).toEqual(['50', '1,000', '10,000']);
    expect(row('Storage')).toEqual(['100 MB', '5 GB', '50 GB']);
    expect(row('Telegram, WhatsApp and Instagram')).toEqual(['—Not included', '✓Included', '✓Included']);
    expect(row('White label')).toEqual(['—Not included', '—Not included', '✓Included']);
  });

  it('Subscribe Now says "Processing...", asks for a checkout and follows its address', async () => {
    signIn();
    let answer: (r: Response) => void = () => {};
    const { calls } = serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
      'POST /api/v1/subscriptions/checkout': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { router } = render();
    await userEvent.click(await screen.findByRole('button', { name: /Yearly/ }));
    await userEvent.click(within(card('Pro')).getByRole('button', { name: 'Subscribe Now' }));
    expect(within(card('Pro')).getByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(within(card('Enterprise')).getByRole('button', { name: 'Subscribe Now' })).toBeDisabled();
    const checkout = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(checkout.body!)).toEqual({
      tier: 'pro',
      billing_period: 'yearly',
      success_url: '/billing?checkout=success',
      cancel_url: '/pricing?plan=pro&billing=yearly',
    });
    answer(json(200, { url: '/payment/tranzila-test?session_id=s1&amount=199000', session_id: 's1' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment/tranzila-test'));
    expect(router.state.location.search).toBe('?session_id=s1&amount=199000');
  });

  it('says "Failed to start checkout. Please try again." when checkout fails, and lets the owner try again', async () => {
    signIn();
    serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
      'POST /api/v1/subscriptions/checkout': () => json(500, { detail: 'boom' }),
    });
    render();
    await userEvent.click(
      within(await screen.findByRole('heading', { name: 'Enterprise' }).then((h) => h.closest('section')!)).getByRole(
        'button',
        { name: 'Subscribe Now' },
      ),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to start checkout. Please try again.');
    expect(within(card('Enterprise')).getByRole('button', { name: 'Subscribe Now' })).toBeEnabled();
  });

  it('sends a visitor without a session to sign in with the chosen plan in the redirect', async () => {
    const { calls } = serve({ 'GET /api/v1/subscriptions/plans': () => json(200, catalogue()) });
    const { router } = render('/pricing', 'en', false);
    await userEvent.click(
      within(await screen.findByRole('heading', { name: 'Pro' }).then((h) => h.closest('section')!)).getByRole(
        'button',
        { name: 'Subscribe Now' },
      ),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/pricing?plan=pro&billing=monthly');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // The free plan goes to registration.
    await router.navigate('/pricing');
    expect(await screen.findByRole('link', { name: 'Get started free' })).toHaveAttribute('href', '/register');
  });

  it('back from sign-in, shows the plan and period chosen and puts the focus on its Subscribe Now', async () => {
    signIn();
    serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
    });
    render('/pricing?plan=enterprise&billing=yearly');
    const enterprise = await screen.findByRole('heading', { name: 'Enterprise' }).then((h) => h.closest('section')!);
    expect(screen.getByRole('button', { name: /Yearly/ })).toHaveAttribute('aria-pressed', 'true');
    expect(within(enterprise).getByText('Your choice')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your Enterprise plan is selected');
    await waitFor(() => expect(within(enterprise).getByRole('button', { name: 'Subscribe Now' })).toHaveFocus());
  });

  it('marks a paid owner’s plan as current and links the other plans to billing', async () => {
    signIn();
    serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, proStatus()),
    });
    render();
    expect(await screen.findByRole('button', { name: 'Current plan' })).toBeDisabled();
    expect(within(card('Pro')).getByRole('button', { name: 'Current plan' })).toBeInTheDocument();
    expect(within(card('Free')).getByRole('link', { name: 'Manage subscription' })).toHaveAttribute('href', '/billing');
    // One subscription at a time: the other paid plan is changed from the billing page, not a second checkout.
    expect(within(card('Enterprise')).getByRole('link', { name: 'Manage subscription' })).toHaveAttribute(
      'href',
      '/billing',
    );
    expect(screen.queryByRole('button', { name: 'Subscribe Now' })).toBeNull();
  });

  it('speaks Hebrew', async () => {
    signIn();
    serve({
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
    });
    render('/pricing', 'he');
    expect(await screen.findByRole('heading', { name: 'בחרו את התוכנית שלכם', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /שנתי/ })).toHaveTextContent('חסכו 17%');
    expect(screen.getAllByRole('button', { name: 'הירשמו עכשיו' })).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'השוואת תוכניות' })).toBeInTheDocument();
  });
});
