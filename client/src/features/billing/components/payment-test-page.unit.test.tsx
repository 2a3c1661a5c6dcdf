import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { PaymentTestPage } from './payment-test-page';
import { catalogue, json, proStatus, serve } from '@/test/billing-test-server';
import { tokenStorage } from '@/lib/token-storage';

const order = {
  session_id: 'chk_1',
  user_id: 'owner-1',
  email: 'dana@example.com',
  amount: '19900',
  currency: 'ILS',
  tier: 'pro',
  billing_period: 'monthly',
  success_url: '/billing?checkout=success',
  cancel_url: '/pricing?plan=pro&billing=monthly',
  description: 'Kesher Pro (monthly)',
  promo: 'kept',
};
const address = (over: Record<string, string | null> = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...order, ...over })) if (v !== null) params.set(k, v);
  return `/payment/tranzila-test?${params}`;
};
const render = (path = address(), language: 'en' | 'he' = 'en') =>
  renderRoutes(
    [
      { path: '/payment/tranzila-test', element: <PaymentTestPage /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { path, language },
  );

describe('/payment/tranzila-test', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows TEST MODE, the order from the address and the card form with its limits, selects and prefilled test card', () => {
    render();
    expect(screen.getByText('TEST MODE')).toBeInTheDocument();
    const summary = screen.getByRole('heading', { name: 'Order summary' }).closest('section')!;
    expect(within(summary).getByText('Kesher Pro (monthly)')).toBeInTheDocument();
    expect(within(summary).getByText('₪199.00')).toBeInTheDocument();
    expect(within(summary).getByText('dana@example.com')).toBeInTheDocument();

    const cardNumber = screen.getByLabelText('Card number');
    expect(cardNumber).toHaveAttribute('maxlength', '16');
    expect(cardNumber).toHaveValue('4580458045804580');
    expect(cardNumber).toBeRequired();
    expect(screen.getByLabelText('Card holder name')).toBeRequired();
    expect(screen.getByLabelText('CVV')).toHaveAttribute('maxlength', '4');
    const months = within(screen.getByLabelText('Expiry month'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(months).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    const years = within(screen.getByLabelText('Expiry year'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    const thisYear = new Date().getFullYear();
    expect(years).toHaveLength(10);
    expect(years[0]).toBe(String(thisYear % 100).padStart(2, '0'));
    expect(years[9]).toBe(String((thisYear + 9) % 100).padStart(2, '0'));
    // The hints name both test cards.
    expect(screen.getByRole('button', { name: 'Use card 4580458045804580' })).toBeInTheDocument();
    expect(screen.getByText('Payment succeeds')).toBeInTheDocument();
    expect(screen.getByText('Payment is declined')).toBeInTheDocument();
    expect(screen.getByText('This is a test page and no real charges are made.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay ₪199.00' })).toBeInTheDocument();
  });

  it('shows dollars for another currency, and ILS when none is given', () => {
    render(address({ currency: 'USD', amount: '4999' }));
    expect(screen.getByRole('button', { name: 'Pay $49.99' })).toBeInTheDocument();
  });

  it('posts the page’s parameters and the card form-encoded, says "Processing..." and goes to the address it is given', async () => {
    let answer: (r: Response) => void = () => {};
    const { calls } = serve({
      'POST /api/v1/subscriptions/tranzila-mock': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { router, queryClient } = render(address({ currency: null }));
    queryClient.setQueryData(['subscriptions', 'status'], { tier: 'FREE' }); // what /pricing had read before paying
    expect(screen.getByRole('button', { name: 'Pay ₪199.00' })).toBeInTheDocument(); // ILS by default
    await userEvent.selectOptions(screen.getByLabelText('Expiry month'), '03');
    await userEvent.selectOptions(
      screen.getByLabelText('Expiry year'),
      within(screen.getByLabelText('Expiry year')).getAllByRole('option')[3]!.textContent!,
    );
    await userEvent.clear(screen.getByLabelText('CVV'));
    await userEvent.type(screen.getByLabelText('CVV'), '4321');
    await userEvent.click(screen.getByRole('button', { name: 'Pay ₪199.00' }));
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();

    const [call] = calls;
    expect(call!.url).toBe('/api/v1/subscriptions/tranzila-mock');
    expect(call!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const sent = Object.fromEntries(new URLSearchParams(call!.body!));
    const year = (new Date().getFullYear() + 3) % 100;
    expect(sent).toEqual({
      ...order,
      currency: undefined,
      card_number: '4580458045804580',
      card_holder: 'Test User',
      expiry: `03/${String(year).padStart(2, '0')}`,
      cvv: '4321',
    });
    answer(
      json(200, {
        status: 'success',
        redirect_url: '/billing?checkout=success&payment=pay_1',
        message: 'Payment successful! Your subscription is active.',
        payment_id: 'pay_1',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/billing'));
    expect(router.state.location.search).toBe('?checkout=success&payment=pay_1');
    // The plan read before paying is not shown again as current: /billing asks afresh.
    expect(queryClient.getQueryState(['subscriptions', 'status'])!.isInvalidated).toBe(true);
  });

  it('stays with a clear message when the card is declined, and can pay again', async () => {
    serve({
      'POST /api/v1/subscriptions/tranzila-mock': () =>
        json(200, {
          status: 'failed',
          redirect_url: null,
          message: 'Your card was declined. Please try a different card.',
          payment_id: null,
        }),
    });
    const { router } = render();
    await userEvent.click(screen.getByRole('button', { name: 'Use card 4000000000000002' }));
    expect(screen.getByLabelText('Card number')).toHaveValue('4000000000000002');
    await userEvent.click(screen.getByRole('button', { name: 'Pay ₪199.00' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined. Please try a different card.');
    expect(screen.getByRole('button', { name: 'Pay ₪199.00' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/payment/tranzila-test');
  });

  it('says "Payment failed. Please try again." for a failure without a message, the server’s field error for a 422, and the network text offline', async () => {
    let answer = () => json(200, { status: 'failed', redirect_url: null, message: '', payment_id: null });
    serve({ 'POST /api/v1/subscriptions/tranzila-mock': () => answer() });
    render();
    const pay = () => userEvent.click(screen.getByRole('button', { name: 'Pay ₪199.00' }));
    await pay();
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment failed. Please try again.');

    answer = () =>
      json(422, { detail: [{ loc: ['body', 'cvv'], msg: 'cvv must be 3 or 4 digits', type: 'value_error' }] });
    await pay();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('cvv must be 3 or 4 digits'));

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await pay();
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('An error occurred while processing your payment.'),
    );
  });

  it('Cancel goes to the cancel address, or to /pricing without one or for another site', async () => {
    const first = render();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/pricing'));
    expect(first.router.state.location.search).toBe('?plan=pro&billing=monthly');
    first.unmount();

    for (const cancel of [null, 'https://evil.example/phish']) {
      const view = render(address({ cancel_url: cancel }));
      await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(view.router.state.location.pathname).toBe('/pricing'));
      expect(view.router.state.location.search).toBe('');
      view.unmount();
    }
  });

  it('says so when the address lacks the amount or has a bad one, with a way back to pricing', () => {
    render('/payment/tranzila-test?email=dana%40example.com&amount=ten');
    expect(screen.getByRole('alert')).toHaveTextContent('This payment link is incomplete.');
    expect(screen.getByRole('link', { name: 'Back to pricing' })).toHaveAttribute('href', '/pricing');
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });

  it('speaks Hebrew, amounts in shekels and the declined message translated', async () => {
    serve({
      'POST /api/v1/subscriptions/tranzila-mock': () =>
        json(200, {
          status: 'failed',
          redirect_url: null,
          message: 'Your card was declined. Please try a different card.',
          payment_id: null,
        }),
    });
    render(address({ description: 'Pro plan, monthly' }), 'he');
    expect(screen.getByText('מצב בדיקה')).toBeInTheDocument();
    expect(screen.getByText('תוכנית פרו, חודשי')).toBeInTheDocument();
    const pay = screen.getByRole('button', { name: /^תשלום / });
    expect(pay.textContent).toContain('199.00');
    expect(pay.textContent).toContain('₪');
    await userEvent.click(pay);
    expect(await screen.findByRole('alert')).toHaveTextContent('הכרטיס נדחה. אנא נסו כרטיס אחר.');
  });

  it("with manage=1 is the test payments' billing portal: the plan, its renewal, the payments with receipts, cancelling, and back", async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    serve({
      'GET /api/v1/subscriptions/status': () => json(200, proStatus()),
      'GET /api/v1/subscriptions/plans': () => json(200, catalogue()),
      'GET /api/v1/subscriptions/payment-history': () =>
        json(200, [
          {
            id: 'pay_1',
            created_at: '2026-11-23T10:00:00.000Z',
            description: 'Kesher Pro (monthly)',
            amount: 19_900,
            currency: 'ILS',
            status: 'succeeded',
            invoice_pdf: '/api/v1/subscriptions/receipts/pay_1.pdf?sig=x',
          },
        ]),
    });
    render('/payment/tranzila-test?manage=1&return_url=%2Fbilling');
    expect(screen.getByRole('heading', { name: 'Manage your subscription', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('TEST MODE')).toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    const plan = (await screen.findByRole('heading', { name: 'Current Plan' })).closest('section')!;
    expect(within(plan).getByText('Pro')).toBeInTheDocument();
    expect(within(plan).getByText('Renews on December 23, 2026.')).toBeInTheDocument();
    expect(within(plan).getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
    // Not the button that opened this page: it only led here again.
    expect(within(plan).queryByRole('button', { name: 'Manage billing' })).toBeNull();
    expect(await screen.findByRole('link', { name: /^Receipt for/ })).toHaveAttribute(
      'href',
      '/api/v1/subscriptions/receipts/pay_1.pdf?sig=x',
    );
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing');
    tokenStorage.clear();
  });
});
