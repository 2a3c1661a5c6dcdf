import { plans, streamIds, TEST_CARDS } from '@kesher/contracts';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `subscriptions with the test payments${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let now = new Date('2026-03-10T09:00:00.000Z');
    beforeAll(async () => {
      h = await createApiHarness({ clock: () => now });
    });
    afterAll(async () => h?.close());

    async function owner() {
      const o = await h.owner();
      const headers = { authorization: o.authorization };
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        h.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
      const createAssistant = (name: string) =>
        call('POST', '/assistants/', { name, description: 'd', instructions: 'i' });
      const checkout = async (tier = 'pro', billing_period = 'monthly') => {
        const res = await call('POST', '/subscriptions/checkout', { tier, billing_period });
        expect(res.statusCode).toBe(200);
        const url = new URL(res.json().url, 'http://x');
        expect(url.pathname).toBe('/payment/tranzila-test');
        return Object.fromEntries(url.searchParams) as Record<string, string>;
      };
      const pay = (
        params: Record<string, string>,
        card: Partial<Record<'card_number' | 'card_holder' | 'expiry' | 'cvv', string>> = {},
        auth = true,
      ) =>
        h.app.inject({
          method: 'POST',
          url: '/api/v1/subscriptions/tranzila-mock',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? headers : {}) },
          payload: new URLSearchParams({
            ...params,
            card_number: TEST_CARDS.success,
            card_holder: 'Dana Levi',
            expiry: '12/29',
            cvv: '123',
            ...card,
          }).toString(),
        });
      return { ...o, headers, call, createAssistant, checkout, pay };
    }

    it('documents the eight calls and the callbacks in the OpenAPI document, with their shapes', async () => {
      const spec = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
      const ops: [string, string][] = [
        ['/api/v1/subscriptions/plans', 'get'],
        ['/api/v1/subscriptions/status', 'get'],
        ['/api/v1/subscriptions/checkout', 'post'],
        ['/api/v1/subscriptions/billing-portal', 'post'],
        ['/api/v1/subscriptions/cancel', 'post'],
        ['/api/v1/subscriptions/payment-history', 'get'],
        ['/api/v1/subscriptions/usage', 'get'],
        ['/api/v1/subscriptions/tranzila-mock', 'post'],
      ];
      for (const [path, method] of ops)
        expect(spec.paths[path]?.[method]?.responses?.['200'], `${method} ${path}`).toBeDefined();
      expect(JSON.stringify(spec.paths['/api/v1/subscriptions/checkout'].post.requestBody)).toContain('billing_period');
      expect(Object.keys(spec.paths['/api/v1/subscriptions/tranzila-mock'].post.requestBody.content)).toEqual([
        'application/x-www-form-urlencoded',
      ]);
      expect(spec.paths['/api/v1/subscriptions/webhook']?.post).toBeDefined();
    });

    it('lists the plans publicly, with prices in ILS minor units', async () => {
      const res = await h.app.inject({ url: '/api/v1/subscriptions/plans' });
      expect(res.statusCode).toBe(200);
      expect(res.json().map((p: { tier: string; price_monthly: number }) => [p.tier, p.price_monthly])).toEqual([
        ['FREE', 0],
        ['PRO', plans.PRO.price_monthly],
        ['ENTERPRISE', plans.ENTERPRISE.price_monthly],
      ]);
    });

    it('a free owner at the assistant limit upgrades on the test page; the limit lifts at once; the receipt is a PDF only the owner opens', async () => {
      const dana = await owner();
      expect((await dana.createAssistant('One')).statusCode).toBe(201);
      const refused = await dana.createAssistant('Two');
      expect(refused.statusCode).toBe(403);
      expect((await dana.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'FREE',
        status: 'active',
        current_period_end: null,
      });

      const params = await dana.checkout('pro', 'monthly');
      expect(params).toMatchObject({
        user_id: dana.accountId,
        email: dana.email,
        amount: String(plans.PRO.price_monthly),
        currency: 'ILS',
        tier: 'pro',
        billing_period: 'monthly',
        cancel_url: '/pricing',
      });
      // The same plan asked again (a second click): the same checkout.
      expect((await dana.checkout('pro', 'monthly')).session_id).toBe(params.session_id);

      const paid = await dana.pay({ ...params, amount: '1' });
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({ status: 'success', redirect_url: '/billing?checkout=success' });
      expect((await dana.createAssistant('Two')).statusCode).toBe(201);
      const status = (await dana.call('GET', '/subscriptions/status')).json();
      expect(status).toMatchObject({
        tier: 'PRO',
        status: 'active',
        cancel_at_period_end: false,
        limits: plans.PRO.limits,
        provider: 'test',
        current_period_end: '2026-04-10T09:00:00.000Z',
      });

      const history = (await dana.call('GET', '/subscriptions/payment-history')).json();
      // The amount is the checkout's, not what the page sent.
      expect(history).toMatchObject([
        { amount: plans.PRO.price_monthly, currency: 'ILS', status: 'succeeded', description: 'Pro plan, monthly' },
      ]);
      const receipt = await h.app.inject({ url: history[0].invoice_pdf });
      expect(receipt.statusCode).toBe(200);
      expect(receipt.headers['content-type']).toBe('application/pdf');
      expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = (await extractText(new Uint8Array(receipt.rawPayload), { mergePages: true })).text;
      expect(text).toContain('Amount paid: ILS 199.00');
      expect(text).toContain('Card: **** **** **** 4580');
      const forged = history[0].invoice_pdf.replace(/sig=.*/, 'sig=' + 'A'.repeat(43));
      expect((await h.app.inject({ url: forged })).statusCode).toBe(404);

      // Another owner sees nothing of Dana's, and cannot pay her checkout.
      const eli = await owner();
      expect((await eli.call('GET', '/subscriptions/payment-history')).json()).toEqual([]);
      expect((await eli.call('GET', '/subscriptions/status')).json()).toMatchObject({ tier: 'FREE' });
      expect((await eli.pay(params)).statusCode).toBe(403);
      expect((await dana.pay(params)).json()).toMatchObject({ status: 'success' });
      expect(
        (await h.platform.eventStore.readStream(streamIds.subscription(dana.accountId))).filter(
          (e) => e.type === 'SubscriptionActivated',
        ),
      ).toHaveLength(1);
    });

    it('a declined card makes no subscription and says why; the other card then pays', async () => {
      const noa = await owner();
      const params = await noa.checkout('enterprise', 'yearly');
      expect(params.amount).toBe(String(plans.ENTERPRISE.price_yearly));
      const declined = await noa.pay(params, { card_number: TEST_CARDS.declined });
      expect(declined.json()).toMatchObject({
        status: 'failed',
        redirect_url: null,
        message: 'Your card was declined. Please try a different card.',
      });
      expect((await noa.call('GET', '/subscriptions/status')).json()).toMatchObject({ tier: 'FREE' });
      expect((await noa.call('GET', '/subscriptions/payment-history')).json()).toMatchObject([
        { status: 'failed', invoice_pdf: null },
      ]);
      expect((await noa.pay(params)).json()).toMatchObject({ status: 'success' });
      expect((await noa.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'ENTERPRISE',
        billing_period: 'yearly',
      });
    });

    it("a monthly checkout paid with a form edited to say yearly buys one month: the period is the checkout's", async () => {
      const gil = await owner();
      const params = await gil.checkout('pro', 'monthly');
      const paid = await gil.pay({
        ...params,
        billing_period: 'yearly',
        amount: String(plans.PRO.price_yearly),
        description: 'Pro plan, yearly',
      });
      expect(paid.json()).toMatchObject({ status: 'success' });
      expect((await gil.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'PRO',
        billing_period: 'monthly',
        current_period_end: '2026-04-10T09:00:00.000Z',
      });
      const activated = (await h.platform.eventStore.readStream(streamIds.subscription(gil.accountId))).find(
        (e) => e.type === 'SubscriptionActivated',
      );
      expect(activated?.data).toMatchObject({ billingPeriod: 'monthly', currentPeriodEnd: '2026-04-10T09:00:00.000Z' });
      expect((await gil.call('GET', '/subscriptions/payment-history')).json()).toMatchObject([
        { amount: plans.PRO.price_monthly, description: 'Pro plan, monthly' },
      ]);
    });

    it('refuses missing or malformed card fields with a 422 naming the field, and records nothing', async () => {
      const ron = await owner();
      const params = await ron.checkout();
      const fieldOf = async (card: Record<string, string>, drop?: string) => {
        const body = {
          ...params,
          card_number: TEST_CARDS.success,
          card_holder: 'Ron',
          expiry: '12/29',
          cvv: '123',
          ...card,
        };
        if (drop) delete (body as Record<string, string>)[drop];
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/v1/subscriptions/tranzila-mock',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...ron.headers },
          payload: new URLSearchParams(body).toString(),
        });
        expect(res.statusCode).toBe(422);
        return res.json().detail.map((d: { loc: string[] }) => d.loc.at(-1));
      };
      expect(await fieldOf({ card_number: '4580-4580' })).toEqual(['card_number']);
      // A mistyped number (one digit off the test card) is the form's mistake, not a failed payment.
      expect(await fieldOf({ card_number: '4580458045804581' })).toEqual(['card_number']);
      expect(await fieldOf({}, 'card_number')).toEqual(['card_number']);
      expect(await fieldOf({ expiry: '13/29' })).toEqual(['expiry']);
      expect(await fieldOf({ expiry: '02/26' })).toEqual(['expiry']); // expired before March 2026
      expect(await fieldOf({ cvv: '12' })).toEqual(['cvv']);
      expect(await fieldOf({ card_holder: ' ' })).toEqual(['card_holder']);
      expect(await fieldOf({}, 'session_id')).toEqual(['session_id']);
      const events = (await h.platform.eventStore.readStream(streamIds.subscription(ron.accountId))).map((e) => e.type);
      expect(events).toEqual(['SubscriptionCheckoutStarted']);
      expect((await ron.call('GET', '/subscriptions/payment-history')).json()).toEqual([]);
    });

    it('two checkouts and payments at once for one owner end in one subscription', async () => {
      const tal = await owner();
      const checkouts = await Promise.all([tal.checkout(), tal.checkout(), tal.checkout()]);
      expect(new Set(checkouts.map((c) => c.session_id)).size).toBe(1);
      const paid = await Promise.all(checkouts.map((c) => tal.pay(c)));
      expect(paid.map((r) => r.json().status)).toEqual(['success', 'success', 'success']);
      const events = await h.platform.eventStore.readStream(streamIds.subscription(tal.accountId));
      expect(events.filter((e) => e.type === 'SubscriptionActivated')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'PaymentSucceeded')).toHaveLength(1);
      expect(
        (await tal.call('POST', '/subscriptions/checkout', { tier: 'enterprise', billing_period: 'monthly' }))
          .statusCode,
      ).toBe(409);
    });

    it('cancel keeps the plan to the period end, then the owner is on FREE: data kept, new things over the limit refused', async () => {
      const maya = await owner();
      expect((await maya.call('POST', '/subscriptions/billing-portal', {})).json()).toMatchObject({
        detail: 'FREE_PLAN_USER',
      });
      expect((await maya.pay(await maya.checkout())).json().status).toBe('success');
      // The test payments' portal: the test payment page's management mode, which comes back to the return address.
      expect((await maya.call('POST', '/subscriptions/billing-portal', { return_url: '/billing' })).json()).toEqual({
        url: '/payment/tranzila-test?manage=1&return_url=%2Fbilling',
      });
      expect(
        (await maya.call('POST', '/subscriptions/billing-portal', { return_url: 'https://evil.example/' })).statusCode,
      ).toBe(422);
      for (const name of ['A', 'B', 'C']) expect((await maya.createAssistant(name)).statusCode).toBe(201);
      const cancelled = await maya.call('POST', '/subscriptions/cancel', { immediately: false });
      expect(cancelled.json()).toMatchObject({ tier: 'PRO', status: 'active', cancel_at_period_end: true });
      expect((await maya.createAssistant('D')).statusCode).toBe(201);

      const before = now;
      now = new Date('2026-04-11T00:00:00.000Z');
      try {
        expect((await maya.call('GET', '/subscriptions/status')).json()).toMatchObject({
          tier: 'FREE',
          status: 'canceled',
          limits: plans.FREE.limits,
        });
        expect((await maya.call('GET', '/assistants/')).json()).toHaveLength(4);
        const refused = await maya.createAssistant('E');
        expect(refused.statusCode).toBe(403);
        expect(refused.json().detail).toMatch(/limit of 1 assistant.*upgrade/i);
        expect((await maya.call('POST', '/subscriptions/billing-portal', {})).json()).toMatchObject({
          detail: 'FREE_PLAN_USER',
        });
        // Subscribing again after the end works.
        expect((await maya.checkout()).session_id).toBeTruthy();
      } finally {
        now = before;
      }
    });
  },
);
