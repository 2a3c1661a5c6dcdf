import { plans } from '@kesher/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ToastArea } from '@/components/ui/toast-area';
import { tokenStorage } from '@/lib/token-storage';
import { renderRoutes } from '@/test/render';
import { BillingPage, CHECKOUT_POLL_MS } from './billing-page';
import { catalogue, freeStatus, json, proStatus, serve } from '@/test/billing-test-server';

const usage = (assistants: number, messages: number, storageMb: number, limits = plans.PRO.limits) => ({
  tier: 'PRO',
  usage: { assistants, messages, storage_mb: storageMb },
  limits,
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
});
const payment = (i: number) => ({
  id: `pay_${i}`,
  created_at: `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00.000Z`,
  description: `Pro plan (monthly) #${i}`,
  amount: 19_900,
  currency: 'ILS',
  status: i === 2 ? 'failed' : 'succeeded',
  invoice_pdf: i === 2 ? null : `/api/v1/subscriptions/receipts/pay_${i}.pdf?sig=abc`,
});

function render(path = '/billing', language: 'en' | 'he' = 'en') {
  return renderRoutes(
    [
      {
        // The toasts outlive the page, as in the app's frame: the portal's refusals are read on /pricing.
        element: (
          <>
            <Outlet />
            <ToastArea />
          </>
        ),
        children: [
          { path: '/billing', element: <BillingPage /> },
          { path: '*', element: <p>elsewhere</p> },
        ],
      },
    ],
    { path, language },
  );
}

describe('/billing', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the current plan, its limits, usage bars in the 50/75/90 % bands and the last five payments with receipts', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    const { calls } = serve({
      'GET /api/v1/subscriptions/status': () => json(200, proStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      // 6 of 10 assistants (60 %: notice), 4,000 of 5,000 messages (80 %: warning), 4,700 of 5,120 MB (92 %: critical)
      'GET /api/v1/subscriptions/usage': () => json(200, usage(6, 4000, 4700)),
      'GET /api/v1/subscriptions/payment-history': () => json(200, [1, 2, 3, 4, 5].map(payment)),
    });
    render('/billing?checkout=success');
    expect(screen.getByRole('heading', { name: 'Billing & Subscription', level: 1 })).toBeInTheDocument();
    const plan = (await screen.findByRole('heading', { name: 'Current Plan' })).closest('section')!;
    expect(within(plan).getByText('Pro')).toBeInTheDocument();
    expect(within(plan).getByText('Active')).toBeInTheDocument();
    expect(await within(plan).findByText('₪199.00 a month')).toBeInTheDocument();
    expect(within(plan).getByText('Renews on December 23, 2026.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Thank you! Your payment was received');

    const limits = screen.getByRole('heading', { name: 'Plan Limits' }).closest('section')!;
    expect(within(limits).getByText('Assistants').nextSibling).toHaveTextContent('10');
    expect(within(limits).getByText('Messages per month').nextSibling).toHaveTextContent('5,000');
    expect(within(limits).getByText('Storage').nextSibling).toHaveTextContent('5 GB');

    const bar = async (name: string) => (await screen.findByRole('progressbar', { name })).closest('li')!;
    expect(await bar('Assistants')).toHaveClass('state-notice');
    expect(await bar('Messages this month')).toHaveClass('state-warning');
    expect(await bar('Storage')).toHaveClass('state-critical');
    expect(screen.getByRole('progressbar', { name: 'Messages this month' })).toHaveAttribute('aria-valuenow', '80');
    expect(screen.getByText('4,000 of 5,000')).toBeInTheDocument();

    const history = screen.getByRole('heading', { name: 'Payment History' }).closest('section')!;
    await within(history).findByText('Pro plan (monthly) #1');
    expect(within(history).getAllByRole('listitem')).toHaveLength(5);
    const receipts = within(history).getAllByRole('link', { name: /^Receipt for/ });
    expect(receipts).toHaveLength(4);
    expect(receipts[0]).toHaveAttribute('href', '/api/v1/subscriptions/receipts/pay_1.pdf?sig=abc');
    expect(within(history).getAllByText('₪199.00')).toHaveLength(5);
    expect(within(history).getByText('Failed')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/v1/subscriptions/payment-history?limit=5');
  });

  it('back from a checkout whose webhook has not landed yet, asks again until the new plan shows', async () => {
    // The polling interval is a timer: a fake one the test moves on, so no real seconds pass (vi.waitFor
    // moves it between its checks; Testing Library's findBy would not).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    onTestFinished(() => void vi.useRealTimers());
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    let answers = 0;
    const { calls } = serve({
      'GET /api/v1/subscriptions/status': () => json(200, ++answers < 2 ? freeStatus() : proStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/usage': () => json(200, usage(1, 10, 1)),
      'GET /api/v1/subscriptions/payment-history': () => json(200, [payment(1)]),
    });
    render('/billing?checkout=success');
    await vi.waitFor(() => expect(screen.getByText(/^Thank you! Your payment is being confirmed/)).toBeInTheDocument());
    await vi.waitFor(() => expect(screen.getByText('Free', { selector: '[data-tier]' })).toBeInTheDocument());
    await vi.advanceTimersByTimeAsync(CHECKOUT_POLL_MS);
    await vi.waitFor(() => expect(screen.getByText('Pro', { selector: '[data-tier]' })).toBeInTheDocument());
    expect(screen.getByText('Thank you! Your payment was received and your new plan is active.')).toBeInTheDocument();
    // Once Pro, it stops asking.
    const asked = calls.filter((c) => c.url === '/api/v1/subscriptions/status').length;
    await vi.advanceTimersByTimeAsync(3 * CHECKOUT_POLL_MS); // polling intervals: no further question
    expect(calls.filter((c) => c.url === '/api/v1/subscriptions/status').length).toBe(asked);
  });

  it('cancels only after the specified confirmation, at the period end, then shows access until that date', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    let canceled = false;
    const { calls } = serve({
      'GET /api/v1/subscriptions/status': () => json(200, proStatus({ cancel_at_period_end: canceled })),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/usage': () => json(200, usage(1, 10, 1)),
      'GET /api/v1/subscriptions/payment-history': () => json(200, []),
      'POST /api/v1/subscriptions/cancel': () => {
        canceled = true;
        return json(200, proStatus({ cancel_at_period_end: true }));
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel subscription' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to cancel your subscription? You will lose access to premium features at the end of your billing period.',
    );
    // Keeping it sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    expect(
      await screen.findByText('Your subscription is canceled. You keep access to Pro until December 23, 2026.'),
    ).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual({ immediately: false });
    expect(screen.getByText('Ends at period end')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says "Failed to cancel subscription. Please try again." when the cancel fails', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    serve({
      'GET /api/v1/subscriptions/status': () => json(200, proStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'POST /api/v1/subscriptions/cancel': () => json(500, { detail: 'down' }),
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent(
      'Failed to cancel subscription. Please try again.',
    );
  });

  it('sends a free owner who opens the billing portal to pricing with the FREE_PLAN_USER message', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    const { calls } = serve({
      'GET /api/v1/subscriptions/status': () => json(200, freeStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'POST /api/v1/subscriptions/billing-portal': () => json(403, { detail: 'FREE_PLAN_USER' }),
    });
    const { router } = render();
    expect(
      await screen.findByText('You are on the free plan. Upgrade for more assistants, messages and channels.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/pricing');
    await userEvent.click(screen.getByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(screen.getByText('The billing portal is for paid plans. Choose a plan to subscribe.')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body!)).toEqual({
      return_url: 'http://localhost:3000/billing',
    });
  });

  it('answers NO_STRIPE_CUSTOMER with the setup message and other failures with the portal failure text', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    let answer = () => json(400, { detail: 'NO_STRIPE_CUSTOMER' });
    serve({
      'GET /api/v1/subscriptions/status': () => json(200, proStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'POST /api/v1/subscriptions/billing-portal': () => answer(),
    });
    const { router } = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(screen.getByText(/^Please complete your subscription setup first/)).toBeInTheDocument();

    answer = () => json(502, { detail: 'gateway' });
    await router.navigate('/billing');
    await userEvent.click(await screen.findByRole('button', { name: 'Manage billing' }));
    expect(await screen.findByText('Failed to open billing portal. Please try again.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/billing');
  });

  it('follows the portal address it gets back', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    serve({
      'GET /api/v1/subscriptions/status': () => json(200, proStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'POST /api/v1/subscriptions/billing-portal': () => json(200, { url: '/billing?portal=test' }),
    });
    const { router } = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(router.state.location.search).toBe('?portal=test'));
  });

  it('speaks Hebrew: the trial and its end date', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    serve({
      'GET /api/v1/subscriptions/status': () =>
        json(200, proStatus({ status: 'trialing', trial_end: '2026-12-07T10:00:00.000Z' })),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/usage': () => json(200, usage(1, 10, 1)),
      'GET /api/v1/subscriptions/payment-history': () => json(200, []),
    });
    render('/billing', 'he');
    expect(screen.getByRole('heading', { name: 'חיוב ומנוי', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('תקופת ניסיון')).toBeInTheDocument();
    expect(screen.getByText(/^תקופת הניסיון מסתיימת ב-7 בדצמבר 2026\.$/)).toBeInTheDocument();
    expect(await screen.findByText('אין עדיין תשלומים.')).toBeInTheDocument();
  });
});
