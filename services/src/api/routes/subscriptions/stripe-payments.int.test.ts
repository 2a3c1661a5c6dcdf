import { plans, streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { startStripeStandIn, type StripeStandIn } from '../../../testing/stripe-stand-in.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `subscriptions through Stripe (a local stand-in of its API)${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let stripe: StripeStandIn;
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    beforeAll(async () => {
      stripe = await startStripeStandIn();
      h = await createApiHarness({
        env: {
          STRIPE_SECRET_KEY: stripe.secretKey,
          STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
          STRIPE_API_URL: stripe.apiUrl,
          PUBLIC_URL: 'https://kesher.test',
        },
      });
    });
    afterAll(async () => {
      await h?.close();
      await stripe?.close();
    });

    /** Posts a delivery as Stripe does (the 200 comes once the delivery is recorded; the read model follows). */
    const deliver = (delivery: { body: string; signature: string }) =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
        payload: delivery.body,
      });
    const allEvents = async () => (await h.platform.eventStore.readAll({ maxCount: 100_000 })).events;
    const countOf = async (streamPrefix: string) =>
      (await allEvents()).filter((e) => e.streamId.startsWith(streamPrefix)).length;

    async function owner() {
      const o = await h.owner();
      const headers = { authorization: o.authorization };
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        h.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
      const stream = async () =>
        (await h.platform.eventStore.readStream(streamIds.subscription(o.accountId))).map((e) => e.type);
      /** Waits until the billing read model has applied everything on the owner's subscription stream. */
      const settled = async () => {
        const last = (await h.platform.eventStore.readStream(streamIds.subscription(o.accountId))).at(-1);
        if (last) expect(await h.platform.projector.progress.waitFor(['billing'], last.position, 10_000)).toBe(true);
      };
      /** Checkout, then the owner pays on Stripe: the session is complete and its subscription exists at Stripe. */
      const subscribe = async (tier = 'pro', billing_period = 'monthly') => {
        const res = await call('POST', '/subscriptions/checkout', { tier, billing_period });
        expect(res.statusCode).toBe(200);
        const session = stripe.sessions.get(res.json().session_id)!;
        const subscription = stripe.completeCheckout(session.id, nowSeconds());
        const { form: _f, ...wire } = session;
        return { session: { ...wire, subscription: subscription.id }, subscription };
      };
      return { ...o, headers, call, stream, settled, subscribe };
    }

    it('opens Stripe Checkout with the plan price inline, a 14-day trial on monthly, and the owner in the metadata', async () => {
      const dana = await owner();
      const res = await dana.call('POST', '/subscriptions/checkout', { tier: 'pro', billing_period: 'monthly' });
      expect(res.json().url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
      const form = stripe.sessions.get(res.json().session_id)!.form;
      expect(form).toMatchObject({
        mode: 'subscription',
        client_reference_id: dana.accountId,
        'line_items[0][price_data][currency]': 'ils',
        'line_items[0][price_data][unit_amount]': String(plans.PRO.price_monthly),
        'line_items[0][price_data][recurring][interval]': 'month',
        'subscription_data[trial_period_days]': '14',
        'subscription_data[metadata][owner_id]': dana.accountId,
        success_url: 'https://kesher.test/billing?checkout=success',
        cancel_url: 'https://kesher.test/pricing',
      });
      const yearly = await dana.call('POST', '/subscriptions/checkout', {
        tier: 'enterprise',
        billing_period: 'yearly',
      });
      const yearlyForm = stripe.sessions.get(yearly.json().session_id)!.form;
      expect(yearlyForm).toMatchObject({
        'line_items[0][price_data][unit_amount]': String(plans.ENTERPRISE.price_yearly),
        'line_items[0][price_data][recurring][interval]': 'year',
      });
      expect(yearlyForm['subscription_data[trial_period_days]']).toBeUndefined();
      // The customer made for the first checkout is reused.
      expect(yearlyForm.customer).toBe(form.customer);
    });

    it('checkout.session.completed makes the owner PRO (trialing) at once; the same event again changes nothing', async () => {
      const dana = await owner();
      const { session } = await dana.subscribe();
      const completed = stripe.event('checkout.session.completed', session);
      expect((await deliver(completed)).statusCode).toBe(200);
      await dana.settled();
      expect((await dana.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'PRO',
        status: 'trialing',
        provider: 'stripe',
        limits: plans.PRO.limits,
      });
      const after = await dana.stream();
      expect((await deliver(completed)).statusCode).toBe(200);
      expect(await dana.stream()).toEqual(after);
      expect(after.filter((t) => t === 'SubscriptionActivated')).toHaveLength(1);
    });

    it('refuses forged and stale signatures with 400 and records nothing', async () => {
      const dana = await owner();
      const { session } = await dana.subscribe();
      const event = stripe.event('checkout.session.completed', session);
      const before = await countOf('stripeevent-');
      const forged = await deliver({
        body: event.body,
        signature: stripe.sign(event.body, { secret: 'whsec_not_the_secret' }),
      });
      expect([forged.statusCode, forged.json()]).toMatchObject([400, { detail: 'Invalid Stripe signature.' }]);
      const stale = await deliver({
        body: event.body,
        signature: stripe.sign(event.body, { timestamp: nowSeconds() - 600 }),
      });
      expect(stale.statusCode).toBe(400);
      const tampered = await deliver({
        body: event.body.replace(dana.accountId, 'someone-else'),
        signature: event.signature,
      });
      expect(tampered.statusCode).toBe(400);
      const unsigned = await h.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/webhook',
        headers: { 'content-type': 'application/json' },
        payload: event.body,
      });
      expect(unsigned.statusCode).toBe(400);
      expect(await dana.stream()).toEqual(['SubscriptionCheckoutStarted']);
      expect(await countOf('stripeevent-')).toBe(before);
    });

    it('ends in the right state when customer.subscription.updated arrives before checkout.session.completed', async () => {
      const dana = await owner();
      const { session, subscription } = await dana.subscribe();
      const t = nowSeconds();
      // At Stripe the trial ended and the owner asked to cancel at the period end; that update is delivered first.
      Object.assign(subscription, { status: 'active', trial_end: null, cancel_at_period_end: true });
      const updated = stripe.event('customer.subscription.updated', { ...subscription }, { created: t + 5 });
      const created = stripe.event(
        'customer.subscription.created',
        { ...subscription, status: 'trialing', cancel_at_period_end: false },
        { created: t },
      );
      expect((await deliver(updated)).statusCode).toBe(200);
      expect((await deliver(stripe.event('checkout.session.completed', session, { created: t }))).statusCode).toBe(200);
      expect((await deliver(created)).statusCode).toBe(200);
      await dana.settled();
      expect((await dana.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'PRO',
        status: 'active',
        cancel_at_period_end: true,
      });
      expect((await dana.stream()).filter((t) => t === 'SubscriptionActivated')).toHaveLength(1);
    });

    it('records a webhook about an unknown customer once and ignores it', async () => {
      const stranger = {
        id: 'sub_stranger',
        object: 'subscription',
        customer: 'cus_nobody',
        status: 'active',
        metadata: {},
        items: { data: [] },
      };
      const event = stripe.event('customer.subscription.updated', stranger);
      expect((await deliver(event)).statusCode).toBe(200);
      expect((await deliver(event)).statusCode).toBe(200);
      const recorded = await h.platform.eventStore.readStream(streamIds.stripeEvent(event.id));
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        type: 'StripeWebhookReceived',
        data: { applied: false, customerId: 'cus_nobody', outcome: expect.stringMatching(/unknown customer/) },
      });
    });

    it('an invoice naming only a customer first seen by the delivery just before still finds its owner', async () => {
      const dana = await owner();
      const t = nowSeconds();
      const subscription = {
        id: `sub_bare_${t}`,
        object: 'subscription',
        customer: `cus_bare_${t}`,
        status: 'active',
        metadata: { owner_id: dana.accountId, tier: 'PRO' },
        items: {
          data: [
            { current_period_start: t, current_period_end: t + 86400, price: { recurring: { interval: 'month' } } },
          ],
        },
      };
      stripe.subscriptions.set(subscription.id, subscription);
      expect((await deliver(stripe.event('customer.subscription.created', subscription))).statusCode).toBe(200);
      // Straight after (the 200 does not wait for the read model): the invoice names the customer only.
      const { parent: _parent, ...bare } = stripe.invoice(subscription.id, {
        paid: true,
        amount: plans.PRO.price_monthly,
      });
      expect((await deliver(stripe.event('invoice.paid', bare))).statusCode).toBe(200);
      expect((await dana.stream()).filter((type) => type === 'PaymentSucceeded')).toHaveLength(1);
      await dana.settled();
      expect((await dana.call('GET', '/subscriptions/payment-history')).json()).toMatchObject([
        { amount: plans.PRO.price_monthly, status: 'succeeded' },
      ]);
    });

    it('invoices: paid → history with the invoice PDF; failed → past due; subscription deleted → FREE, data kept', async () => {
      const dana = await owner();
      const { session, subscription } = await dana.subscribe();
      await deliver(stripe.event('checkout.session.completed', session));
      const paid = stripe.event(
        'invoice.paid',
        stripe.invoice(subscription.id as string, { paid: true, amount: plans.PRO.price_monthly }),
      );
      await deliver(paid);
      await deliver(paid);
      await dana.settled();
      const history = (await dana.call('GET', '/subscriptions/payment-history')).json();
      expect(history).toMatchObject([
        {
          amount: plans.PRO.price_monthly,
          currency: 'ILS',
          status: 'succeeded',
          invoice_pdf: expect.stringMatching(/^https:\/\/pay\.stripe\.com\/invoice\/in_.*\/pdf$/),
        },
      ]);
      for (const name of ['A', 'B'])
        expect(
          (await dana.call('POST', '/assistants/', { name, description: 'd', instructions: 'i' })).statusCode,
        ).toBe(201);

      await deliver(
        stripe.event(
          'invoice.payment_failed',
          stripe.invoice(subscription.id as string, { paid: false, amount: plans.PRO.price_monthly }),
        ),
      );
      await dana.settled();
      expect((await dana.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'PRO',
        status: 'past_due',
      });
      expect(
        (await dana.call('GET', '/subscriptions/payment-history')).json().map((p: { status: string }) => p.status),
      ).toEqual(['failed', 'succeeded']);

      await deliver(
        stripe.event(
          'customer.subscription.deleted',
          { ...subscription, status: 'canceled' },
          { created: nowSeconds() + 60 },
        ),
      );
      await dana.settled();
      expect((await dana.call('GET', '/subscriptions/status')).json()).toMatchObject({
        tier: 'FREE',
        limits: plans.FREE.limits,
      });
      expect((await dana.call('GET', '/assistants/')).json()).toHaveLength(2);
      expect(
        (await dana.call('POST', '/assistants/', { name: 'C', description: 'd', instructions: 'i' })).statusCode,
      ).toBe(403);
    });

    it('opens the billing portal and cancels at the period end through Stripe; FREE_PLAN_USER and NO_STRIPE_CUSTOMER as specified', async () => {
      const dana = await owner();
      expect((await dana.call('POST', '/subscriptions/billing-portal', {})).json()).toMatchObject({
        detail: 'FREE_PLAN_USER',
      });
      const { session, subscription } = await dana.subscribe();
      await deliver(stripe.event('checkout.session.completed', session));
      await dana.settled();
      const portal = await dana.call('POST', '/subscriptions/billing-portal', { return_url: '/billing' });
      expect(portal.json().url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
      expect(stripe.requests.at(-1)).toMatchObject({
        path: '/v1/billing_portal/sessions',
        form: { customer: session.customer, return_url: 'https://kesher.test/billing' },
      });

      const cancelled = await dana.call('POST', '/subscriptions/cancel', { immediately: false });
      expect(cancelled.json()).toMatchObject({ tier: 'PRO', cancel_at_period_end: true });
      expect(stripe.requests.at(-1)).toMatchObject({
        method: 'POST',
        path: `/v1/subscriptions/${subscription.id}`,
        form: { cancel_at_period_end: 'true' },
      });
      // Stripe then says so by webhook. The webhook side remembers the stream as it was after the checkout
      // (the cancel was written by the route since): its append conflicts, it reads again, and records no
      // second cancel.
      const types = await dana.stream();
      expect(types.filter((t) => t === 'SubscriptionCancelRequested')).toHaveLength(1);
      expect(
        (
          await deliver(
            stripe.event(
              'customer.subscription.updated',
              { ...subscription, cancel_at_period_end: true },
              { created: nowSeconds() + 30 },
            ),
          )
        ).statusCode,
      ).toBe(200);
      const after = await dana.stream();
      expect(after).toHaveLength(types.length + 1);
      expect(after.at(-1)).toBe('StripeWebhookReceived');
      expect(after.filter((t) => t === 'SubscriptionCancelRequested')).toHaveLength(1);

      const eli = await owner();
      const orphan = {
        id: 'sub_orphan',
        object: 'subscription',
        customer: null,
        status: 'active',
        metadata: { owner_id: eli.accountId, tier: 'PRO' },
        items: {
          data: [
            {
              current_period_start: nowSeconds(),
              current_period_end: nowSeconds() + 86400,
              price: { recurring: { interval: 'month' } },
            },
          ],
        },
      };
      await deliver(stripe.event('customer.subscription.created', orphan));
      await eli.settled();
      expect((await eli.call('POST', '/subscriptions/billing-portal', {})).json()).toMatchObject({
        detail: 'NO_STRIPE_CUSTOMER',
      });
    });

    it('the test payment form is off when Stripe takes the payments', async () => {
      const dana = await owner();
      const form = {
        session_id: 'tc_x',
        user_id: dana.accountId,
        email: dana.email,
        amount: '19900',
        currency: 'ILS',
        tier: 'pro',
        billing_period: 'monthly',
        success_url: '/billing',
        cancel_url: '/pricing',
        description: 'Pro',
        card_number: '4580458045804580',
        card_holder: 'Dana',
        expiry: '12/39',
        cvv: '123',
      };
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/tranzila-mock',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      });
      expect([res.statusCode, res.json()]).toMatchObject([
        404,
        { detail: 'Test payments are off: this deployment takes payments through Stripe.' },
      ]);
      expect(await dana.stream()).toEqual([]);
    });
  },
);
