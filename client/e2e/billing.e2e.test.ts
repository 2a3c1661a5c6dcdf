import type { SubscriptionStatus } from '@kesher/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he } from '../src/features/billing/locales/he';
import { apiClient } from './api';
import { launchChromium, seriousViolations } from './browser';

/**
 * Plans and payments in a real Chromium on a 360 px phone, against the real embedded server with its
 * test payments (what `make start` runs): a free owner is refused a second assistant, picks Pro on
 * /pricing (chosen before signing in and carried through sign-in), is declined on the test payment page
 * with the declined card and pays with the success card, creates the second assistant at once, finds the
 * payment and its PDF receipt on /billing, cancels, and keeps access until the period ends.
 */
const baseUrl = inject('baseUrl');
const email = `billing-owner-${Date.now()}@example.com`;
const password = 'Kesher-Billing-2026!';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let checkoutAddress: string;
const api = apiClient(baseUrl, () => token);

const assistant = (name: string) => ({
  name,
  description: `${name} answers questions about our shop.`,
  instructions: 'Answer from the files only.',
});

/** No page may be wider than the phone (the header, the plan cards, the table's frame, the card form). */
async function fitsThePhone(label: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} is wider than the screen`).toBeLessThanOrEqual(0);
  const found = await seriousViolations(page);
  expect(found.map((v) => `${label}: ${v.id} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function createAssistantInTheForm(name: string) {
  await page.goto('/create-assistant');
  await page.getByLabel('Assistant name *').fill(name);
  await page.getByLabel('Description *').fill(assistant(name).description);
  await page.getByLabel('Instructions *').fill(assistant(name).instructions);
  await page.getByRole('button', { name: 'Create Assistant', exact: true }).click();
}

beforeAll(async () => {
  token = (
    await api.call<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
  ).access_token;
  await api.call('/assistants/', { method: 'POST', body: JSON.stringify(assistant('First shop helper')) });

  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    baseURL: baseUrl,
    isMobile: true,
    hasTouch: true,
  });
  // The journey reads English labels; the last test switches to Hebrew, the product's default.
  await context.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await browser?.close();
});

describe('billing with the test payments, on a phone', () => {
  it('a visitor sees the same plans signed out as signed in, picks Pro, signs in and comes back to /pricing with Pro chosen', async () => {
    await page.goto('/pricing');
    // One catalogue (issue 22 item 13): the plans the limits enforce, with their prices, before signing in.
    const signedOutPro = page.locator('section.plan', { has: page.getByRole('heading', { name: 'Pro', exact: true }) });
    const signedOutPrice = (await signedOutPro.locator('[data-price]').textContent())!;
    expect(signedOutPrice).toMatch(/^₪199/);
    expect(await page.getByText(/\$50|\$100|documents per agent/).count()).toBe(0);
    await fitsThePhone('/pricing (signed out)');
    await signedOutPro.getByRole('button', { name: 'Subscribe Now' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/pricing?plan=pro&billing=monthly');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/pricing' && url.searchParams.get('plan') === 'pro');
    await page.getByRole('heading', { name: 'Choose your plan', level: 1 }).waitFor();
    const pro = page.locator('section.plan', { has: page.getByRole('heading', { name: 'Pro', exact: true }) });
    await pro.getByText('Your choice').waitFor();
    expect(await pro.locator('[data-price]').textContent()).toBe(signedOutPrice);
    await page
      .locator('section.plan', { has: page.getByRole('heading', { name: 'Free', exact: true }) })
      .getByRole('button', { name: 'Current plan' })
      .waitFor();
    await fitsThePhone('/pricing (server plans)');
  });

  it('the free owner is refused a second assistant with the limit and how to lift it', async () => {
    await createAssistantInTheForm('Second shop helper');
    await page
      .getByText(
        "You have reached your plan's limit of 1 assistant. Delete an assistant or upgrade the plan to create another.",
        { exact: false },
      )
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/create-assistant');
  });

  it('on the test payment page the declined card says so clearly, then the success card upgrades to Pro yearly', async () => {
    await page.goto('/pricing');
    await page.getByRole('button', { name: /Yearly/ }).click();
    const pro = page.locator('section.plan', { has: page.getByRole('heading', { name: 'Pro', exact: true }) });
    const yearlyPrice = (await pro.locator('[data-price]').textContent())!;
    await pro.getByRole('button', { name: 'Subscribe Now' }).click();
    await page.waitForURL((url) => url.pathname === '/payment/tranzila-test');
    checkoutAddress = new URL(page.url()).pathname + new URL(page.url()).search;
    const params = new URL(page.url()).searchParams;
    expect(params.get('tier')).toBe('pro');
    expect(params.get('billing_period')).toBe('yearly');
    await page.getByText('TEST MODE').waitFor();
    // The summary shows the address's amount (minor units) with ₪ and two decimals, and the owner's e-mail.
    const amount = Number(params.get('amount'));
    const shown = `₪${(amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(yearlyPrice.replace(/\/year$/, '')).toBe(shown.replace(/\.00$/, ''));
    await page.locator('[data-amount]').getByText(shown, { exact: true }).waitFor();
    await page.getByText(email, { exact: true }).waitFor();
    expect(await page.getByLabel('Card number').inputValue()).toBe('4580458045804580');
    await fitsThePhone('/payment/tranzila-test');

    // A mistyped number is the form's mistake (422 on the card number), not a failed payment (issue 22 item 16).
    await page.getByLabel('Card number').fill('4580458045804581');
    await page.getByRole('button', { name: `Pay ${shown}` }).click();
    await page
      .getByRole('alert')
      .getByText(/^This is a test page: use the test card 4580458045804580/)
      .waitFor();
    expect(await api.call<unknown[]>('/subscriptions/payment-history')).toEqual([]);

    // The declined test card: a clear message, still on the page, nothing changed.
    await page.getByRole('button', { name: 'Use card 4000000000000002' }).click();
    await page.getByRole('button', { name: `Pay ${shown}` }).click();
    await page.getByRole('alert').getByText('Your card was declined. Please try a different card.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/payment/tranzila-test');
    expect((await api.call<SubscriptionStatus>('/subscriptions/status')).tier).toBe('FREE');

    // The success card.
    await page.getByRole('button', { name: 'Use card 4580458045804580' }).click();
    await page.getByRole('button', { name: `Pay ${shown}` }).click();
    await page.waitForURL((url) => url.pathname === '/billing');
    await page.getByText('Thank you! Your payment was received and your new plan is active.').waitFor();
    await page.locator('[data-tier="PRO"]').waitFor();
    const status = await api.call<SubscriptionStatus>('/subscriptions/status');
    expect(status.tier).toBe('PRO');
    expect(status.billing_period).toBe('yearly');
  });

  it('creates the second assistant at once under the new plan', async () => {
    await createAssistantInTheForm('Second shop helper');
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Second shop helper' }).waitFor();
    expect(await api.call<unknown[]>('/assistants/')).toHaveLength(2);
  });

  it('shows the plan, its limits, usage and the payment with its PDF receipt on /billing', async () => {
    await page.goto('/billing');
    await page.getByRole('heading', { name: 'Billing & Subscription', level: 1 }).waitFor();
    const limits = page.locator('section', { has: page.getByRole('heading', { name: 'Plan Limits' }) });
    await limits.getByText('10', { exact: true }).waitFor(); // Pro: 10 assistants
    await page.getByRole('progressbar', { name: 'Assistants' }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Assistants' }).getAttribute('aria-valuenow')).toBe('20'); // 2 of 10
    const history = page.locator('section', { has: page.getByRole('heading', { name: 'Payment History' }) });
    // Newest first: the payment, then the declined attempt.
    const row = history.locator('li.payment-row').first();
    await row.getByText('Paid').waitFor();
    await history.locator('li.payment-row').nth(1).getByText('Failed').waitFor();
    const receipt = row.getByRole('link', { name: /^Receipt for/ });
    const href = (await receipt.getAttribute('href'))!;
    // The receipt is a real PDF that the link itself opens: fetched as a click would, with no bearer token.
    const pdf = await page.evaluate(async (url) => {
      const response = await fetch(url, { credentials: 'omit' });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        head: String.fromCharCode(...bytes.slice(0, 5)),
      };
    }, href);
    expect(pdf).toEqual({ status: 200, type: expect.stringMatching(/^application\/pdf/), head: '%PDF-' });
    await fitsThePhone('/billing');
  });

  it('"Manage billing" opens the test payments\' portal (the plan, its renewal, the payments), and comes back', async () => {
    await page.goto('/billing');
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL((url) => url.pathname === '/payment/tranzila-test' && url.searchParams.get('manage') === '1');
    await page.getByRole('heading', { name: 'Manage your subscription', level: 1 }).waitFor();
    const plan = page.locator('section', { has: page.getByRole('heading', { name: 'Current Plan' }) });
    await plan.locator('[data-tier="PRO"]').waitFor();
    await plan.getByRole('button', { name: 'Cancel subscription' }).waitFor();
    await page.locator('li.payment-row').first().getByText('Paid').waitFor();
    await fitsThePhone('/payment/tranzila-test?manage=1');
    await page.getByRole('link', { name: 'Back to billing' }).click();
    await page.waitForURL((url) => url.pathname === '/billing');
  });

  it('cancels after the confirmation and keeps access until the period ends', async () => {
    await page.goto('/billing');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
    await dialog
      .getByText(
        'Are you sure you want to cancel your subscription? You will lose access to premium features at the end of your billing period.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect
      .poll(async () => (await api.call<SubscriptionStatus>('/subscriptions/status')).cancel_at_period_end)
      .toBe(true);
    const { current_period_end: end, tier } = await api.call<SubscriptionStatus>('/subscriptions/status');
    expect(tier).toBe('PRO'); // still Pro until the end of the period paid for
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(end!));
    await page.getByText(`Your subscription is canceled. You keep access to Pro until ${date}.`).waitFor();
    await page.getByText('Ends at period end').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
  });

  it('in Hebrew, right to left, the billing, pricing and payment pages fit the phone', async () => {
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.goto('/billing');
    await page.getByRole('heading', { name: he.billing.title, level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByText(he.billing.status.ending).waitFor();
    await fitsThePhone('/billing (he)');
    await page.goto('/pricing');
    await page.getByRole('heading', { name: he.pricing.title, level: 1 }).waitFor();
    await page
      .getByRole('button', { name: new RegExp(he.pricing.yearly) })
      .getByText(he.pricing.save.replace('{percent}', '17'))
      .waitFor();
    await fitsThePhone('/pricing (he)');
    await page.goto(checkoutAddress);
    await page.getByText(he.payment.testMode).waitFor();
    await page.getByRole('button', { name: new RegExp(`^${he.payment.pay.replace(' {amount}', '')} `) }).waitFor();
    await fitsThePhone('/payment/tranzila-test (he)');
  });
});
