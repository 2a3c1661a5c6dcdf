import { randomUUID } from 'node:crypto';
import {
  billingErrors,
  billingMessages,
  planPrice,
  plans,
  streamIds,
  subscriptionEventTypes,
  type AllPosition,
  type CheckoutRequest,
  type Payment,
  type Plan,
  type SubscriptionStatus,
  type TranzilaMockForm,
  type TranzilaMockResponse,
} from '@kesher/contracts';
import type { BillingQueries } from '@kesher/projections/billing/billing.queries';
import {
  paymentDescription,
  subscriptionDecider,
  subscriptionLapsed,
} from '../domain/subscription/subscription.decider.js';
import { type PlanOf, rowGivesPlan } from '../plans/index.js';
import { aggregateStream } from '../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import { DomainError } from '../platform/commands/decider.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { PaymentsPort } from './payments.port.js';
import type { ReceiptLinks } from './receipt-links.js';
import { receiptPdf } from './receipt-pdf.js';
import { cardMessages, judgeTestCard } from './test-cards.js';

/** The test payment page, whose `manage=1` mode is the test payments' billing portal. */
export const TEST_PORTAL_PATH = '/payment/tranzila-test';

/** A billing refusal the facade sends as `{ detail }` with its status (the spec's codes). */
export class BillingError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'BillingError';
  }
}

export interface BillingServiceDeps {
  handle: CommandHandler;
  eventStore: EventStore;
  billing: BillingQueries;
  payments: PaymentsPort;
  planOf: PlanOf;
  receipts: ReceiptLinks;
  /** Read-your-writes: answers once the read models taking these events include `position` (bounded wait). */
  awaitReadModels: (position: AllPosition, eventTypes?: readonly string[]) => Promise<boolean>;
  clock: () => Date;
  /** Where the site is reached (absolute return addresses for Stripe are built on it). */
  publicUrl: string;
}

/** The subscription use cases behind the eight calls of spec part 2 §7 Subscriptions. */
export function createBillingService(deps: BillingServiceDeps) {
  const context = (ownerId: string): CommandContext => ({
    actor: { kind: 'account', id: ownerId },
    correlationId: randomUUID(),
    now: deps.clock(),
  });
  const settle = async (position: AllPosition | undefined) => {
    // Only the read models that take subscription events (billing, analytics' own if any) are waited for.
    if (position) await deps.awaitReadModels(position, subscriptionEventTypes);
  };
  const stream = streamIds.subscription;

  /**
   * Only addresses on this site: a return address is where the owner lands after paying, and an open
   * redirect through our checkout would be a phishing tool. Relative paths are made absolute (Stripe needs that).
   */
  function ownAddress(given: string | undefined, fallback: string): string {
    const site = new URL(deps.publicUrl);
    const url = URL.parse(given ?? fallback, site.href);
    if (!url || url.origin !== site.origin) throw new DomainError('invalid', billingMessages.returnOffSite);
    return deps.payments.provider === 'test' ? `${url.pathname}${url.search}${url.hash}` : url.toString();
  }

  async function status(ownerId: string): Promise<SubscriptionStatus> {
    const [row, plan] = await Promise.all([deps.billing.subscriptionOf(ownerId), deps.planOf(ownerId)]);
    if (!row)
      return {
        tier: plan.tier,
        status: 'active',
        cancel_at_period_end: false,
        current_period_start: null,
        current_period_end: null,
        trial_end: null,
        limits: plan.limits,
        billing_period: null,
        provider: null,
      };
    const live = rowGivesPlan(row, deps.clock());
    return {
      tier: plan.tier,
      status: live ? row.status : 'canceled',
      cancel_at_period_end: row.cancel_at_period_end,
      current_period_start: row.current_period_start,
      current_period_end: row.current_period_end,
      trial_end: row.trial_end,
      limits: plan.limits,
      billing_period: row.billing_period,
      provider: row.provider,
    };
  }

  return {
    plans: (): Plan[] => [plans.FREE, plans.PRO, plans.ENTERPRISE],
    status,

    async checkout(account: { id: string; email: string }, request: CheckoutRequest) {
      const tier = request.tier === 'pro' ? 'PRO' : 'ENTERPRISE';
      const now = deps.clock();
      const state = (await aggregateStream(deps.eventStore, subscriptionDecider, stream(account.id))).state;
      if (state.subscription && !subscriptionLapsed(state.subscription, now.toISOString()))
        throw new DomainError('conflict', billingMessages.alreadySubscribed);
      const amount = planPrice(tier, request.billing_period);
      const trialDays = request.billing_period === 'monthly' ? plans[tier].trial_days : 0;
      // Same plan, checkout still open: the same address (two clicks, two tabs), without asking the service again.
      const open = state.checkout;
      if (
        open &&
        open.expiresAt > now.toISOString() &&
        open.provider === deps.payments.provider &&
        open.tier === tier &&
        open.billingPeriod === request.billing_period
      ) {
        return { url: open.url, session_id: open.checkoutId };
      }
      const description = paymentDescription(tier, request.billing_period);
      const opened = await deps.payments.openCheckout({
        ownerId: account.id,
        email: account.email,
        tier,
        billingPeriod: request.billing_period,
        amount,
        currency: plans[tier].currency,
        trialDays: deps.payments.provider === 'stripe' ? trialDays : 0,
        description,
        successUrl: ownAddress(request.success_url, '/billing?checkout=success'),
        cancelUrl: ownAddress(request.cancel_url, '/pricing'),
        customerId: state.customerId,
      });
      const result = await deps.handle(
        subscriptionDecider,
        stream(account.id),
        {
          type: 'StartCheckout',
          data: {
            ownerId: account.id,
            checkoutId: opened.checkoutId,
            provider: deps.payments.provider,
            tier,
            billingPeriod: request.billing_period,
            amount,
            currency: plans[tier].currency,
            trialDays: deps.payments.provider === 'stripe' ? trialDays : 0,
            url: opened.url,
            customerId: opened.customerId,
            expiresAt: opened.expiresAt.toISOString(),
            now: now.toISOString(),
          },
        },
        context(account.id),
      );
      // Decided after another checkout of the same plan got in first: send the owner to that one.
      const chosen = result.state.checkout ?? { url: opened.url, checkoutId: opened.checkoutId };
      return { url: chosen.url, session_id: chosen.checkoutId };
    },

    async portal(ownerId: string, returnUrl: string | undefined) {
      const row = await deps.billing.subscriptionOf(ownerId);
      if (!row || !rowGivesPlan(row, deps.clock())) throw new BillingError(403, billingErrors.freePlanUser);
      const back = ownAddress(returnUrl, '/billing');
      // The test payments' own portal: the test payment page in its management mode (the plan, its
      // period, the receipts, cancelling), then back. Answering the billing page itself only reloaded it.
      if (row.provider === 'test')
        return { url: `${TEST_PORTAL_PATH}?${new URLSearchParams({ manage: '1', return_url: back })}` };
      if (!row.customer_id) throw new BillingError(400, billingErrors.noStripeCustomer);
      return { url: await deps.payments.portalUrl(row.customer_id, back) };
    },

    async cancel(ownerId: string, immediately: boolean) {
      const now = deps.clock();
      const state = (await aggregateStream(deps.eventStore, subscriptionDecider, stream(ownerId))).state;
      const live = state.subscription;
      if (live && !subscriptionLapsed(live, now.toISOString()) && live.provider === deps.payments.provider)
        await deps.payments.cancel(live.subscriptionId, immediately);
      const result = await deps.handle(
        subscriptionDecider,
        stream(ownerId),
        { type: 'Cancel', data: { ownerId, immediately, now: now.toISOString() } },
        context(ownerId),
      );
      await settle(result.appended?.position);
      return status(ownerId);
    },

    async history(ownerId: string, limit: number): Promise<Payment[]> {
      const rows = await deps.billing.paymentsOf(ownerId, limit);
      return rows.map((row) => ({
        id: row.payment_id,
        created_at: row.created_at,
        description: row.description,
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        invoice_pdf:
          row.provider === 'stripe'
            ? row.invoice_pdf
            : row.status === 'succeeded'
              ? deps.receipts.url(row.payment_id, ownerId)
              : null,
      }));
    },

    /**
     * The test payment page's form. The amount, plan and period come from the checkout the owner opened
     * (the page's copies are for display: a form edited to say `yearly` still buys the month checked out); `user_id` must be that checkout's owner, and a signed-in caller
     * must be them too. A declined card records PaymentDeclined and leaves the checkout open to try again.
     */
    async payTest(form: TranzilaMockForm, caller: { id: string } | null): Promise<TranzilaMockResponse> {
      if (deps.payments.provider !== 'test') throw new DomainError('not_found', billingMessages.testPaymentsOff);
      if (caller && caller.id !== form.user_id) throw new DomainError('forbidden', billingMessages.checkoutOfAnother);
      const outcome = judgeTestCard({ number: form.card_number });
      const now = deps.clock();
      const paymentId = `pay_${randomUUID().replaceAll('-', '')}`;
      const result = await deps.handle(
        subscriptionDecider,
        stream(form.user_id),
        {
          type: 'PayTestCheckout',
          data: {
            ownerId: form.user_id,
            checkoutId: form.session_id,
            paymentId,
            subscriptionId: `tsub_${randomUUID().replaceAll('-', '')}`,
            outcome: outcome.paid
              ? { paid: true, cardLast4: outcome.cardLast4, cardHolder: form.card_holder }
              : outcome,
            now: now.toISOString(),
          },
        },
        { ...context(form.user_id), actor: { kind: 'account', id: form.user_id } },
      );
      await settle(result.appended?.position);
      const success = URL.parse(form.success_url, deps.publicUrl);
      const redirect =
        success && success.origin === new URL(deps.publicUrl).origin
          ? `${success.pathname}${success.search}`
          : '/billing';
      if (!outcome.paid)
        return { status: 'failed', redirect_url: null, message: outcome.reason, payment_id: paymentId };
      if (result.events.length === 0)
        return { status: 'success', redirect_url: redirect, message: cardMessages.alreadyPaid, payment_id: null };
      return { status: 'success', redirect_url: redirect, message: cardMessages.paid, payment_id: paymentId };
    },

    /** The receipt PDF of a test payment, for a valid link (see receipt-links.ts); null: not found. */
    async receipt(
      paymentId: string,
      signature: string,
      email: (ownerId: string) => Promise<string | null>,
    ): Promise<Uint8Array | null> {
      const payment = await deps.billing.paymentById(paymentId);
      if (
        !payment ||
        payment.status !== 'succeeded' ||
        payment.provider !== 'test' ||
        !deps.receipts.verify(paymentId, payment.owner_id, signature)
      )
        return null;
      return receiptPdf({
        paymentId,
        paidAt: payment.created_at,
        description: payment.description,
        amount: payment.amount,
        currency: payment.currency,
        email: (await email(payment.owner_id)) ?? '',
        cardHolder: payment.card_holder,
        cardLast4: payment.card_last4,
      });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
