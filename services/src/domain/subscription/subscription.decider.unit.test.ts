import type { PaidTier } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import {
  billingMessages,
  subscriptionDecider,
  type StripeSubscriptionSnapshot,
  type SubscriptionEvent,
} from './subscription.decider.js';

const spec = deciderSpec(subscriptionDecider);
const now = '2026-03-01T10:00:00.000Z';
const checkout = {
  checkoutId: 'c1',
  provider: 'test' as const,
  tier: 'PRO' as PaidTier,
  billingPeriod: 'monthly' as const,
  amount: 19_900,
  currency: 'ILS' as const,
  url: '/payment/tranzila-test?session_id=c1',
  customerId: null,
  expiresAt: '2026-03-01T11:00:00.000Z',
};
const started: SubscriptionEvent = {
  type: 'SubscriptionCheckoutStarted',
  data: { ownerId: 'o1', trialDays: 0, ...checkout },
};
const start = (over: Partial<typeof checkout> = {}) => ({
  type: 'StartCheckout' as const,
  data: { ownerId: 'o1', trialDays: 0, now, ...checkout, ...over },
});
const pay = (paid: boolean, paymentId = 'p1') => ({
  type: 'PayTestCheckout' as const,
  data: {
    ownerId: 'o1',
    checkoutId: 'c1',
    paymentId,
    subscriptionId: 's1',
    now,
    outcome: paid
      ? { paid: true as const, cardLast4: '4580', cardHolder: 'Dana' }
      : { paid: false as const, reason: 'declined' },
  },
});
const activated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    ownerId: 'o1',
    subscriptionId: 's1',
    provider: 'test',
    tier: 'PRO',
    billingPeriod: 'monthly',
    status: 'active',
    cancelAtPeriodEnd: false,
    currentPeriodStart: now,
    currentPeriodEnd: '2026-04-01T10:00:00.000Z',
    trialEnd: null,
    customerId: null,
    checkoutId: 'c1',
  },
};

describe('subscription: checkout and test payments', () => {
  it('opens one checkout for the same plan however often it is asked, and a new one for another plan', () => {
    spec.given([]).when(start()).then([started]);
    spec
      .given([started])
      .when(start({ checkoutId: 'c2' }))
      .then([]);
    spec
      .given([started])
      .when(start({ checkoutId: 'c2', tier: 'ENTERPRISE' }))
      .then([
        {
          type: 'SubscriptionCheckoutStarted',
          data: { ownerId: 'o1', trialDays: 0, ...checkout, checkoutId: 'c2', tier: 'ENTERPRISE' },
        },
      ]);
  });

  it('activates on a paid checkout once; a declined card records the refusal and leaves the checkout open', () => {
    const result = subscriptionDecider.decide(
      pay(true),
      [started].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()),
    );
    expect(result.map((e) => e.type)).toEqual(['PaymentSucceeded', 'SubscriptionActivated']);
    spec.given([started, activated]).when(pay(true, 'p2')).then([]);
    const declined = subscriptionDecider.decide(
      pay(false),
      [started].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()),
    );
    expect(declined).toMatchObject([
      { type: 'PaymentDeclined', data: { reason: 'declined', amount: 19_900, subscriptionId: null } },
    ]);
    spec.given([]).when(pay(true)).thenThrows(DomainError, billingMessages.checkoutGone);
    spec
      .given([started, activated])
      .when(start({ checkoutId: 'c3' }))
      .thenThrows(DomainError, billingMessages.alreadySubscribed);
  });

  it('given an open checkout, when it is paid after it expired, then the payment is refused as expired', () => {
    const late = { ...pay(true), data: { ...pay(true).data, now: '2026-03-01T11:00:00.000Z' } };
    spec.given([started]).when(late).thenThrows(DomainError, billingMessages.checkoutExpired);
  });

  it('given a subscription that became active another way while a test checkout was open, when that checkout is paid, then it is refused', () => {
    const elsewhere: SubscriptionEvent = {
      type: 'SubscriptionActivated',
      data: { ...activated.data, subscriptionId: 's0', checkoutId: 'cs_other' },
    } as SubscriptionEvent;
    spec.given([started, elsewhere]).when(pay(true, 'p9')).thenThrows(DomainError, billingMessages.alreadySubscribed);
  });

  it('given a cancel already requested for the period end, when it is asked again, then nothing more is recorded', () => {
    const requested: SubscriptionEvent = {
      type: 'SubscriptionCancelRequested',
      data: { ownerId: 'o1', subscriptionId: 's1', effectiveAt: '2026-04-01T10:00:00.000Z' },
    };
    spec
      .given([started, activated, requested])
      .when({ type: 'Cancel', data: { ownerId: 'o1', immediately: false, now } })
      .then([]);
  });

  it('gives the period the checkout was opened for: a month for a monthly checkout, a year for a yearly one', () => {
    const paidFor = (billingPeriod: 'monthly' | 'yearly') => {
      const opened: SubscriptionEvent = {
        type: 'SubscriptionCheckoutStarted',
        data: { ownerId: 'o1', trialDays: 0, ...checkout, billingPeriod },
      };
      const events = subscriptionDecider.decide(
        pay(true),
        subscriptionDecider.evolve(subscriptionDecider.initialState(), opened),
      );
      return events.find((e) => e.type === 'SubscriptionActivated')?.data;
    };
    expect(paidFor('monthly')).toMatchObject({
      billingPeriod: 'monthly',
      currentPeriodEnd: '2026-04-01T10:00:00.000Z',
    });
    expect(paidFor('yearly')).toMatchObject({ billingPeriod: 'yearly', currentPeriodEnd: '2027-03-01T10:00:00.000Z' });
  });

  it('cancels at the period end (access stays) or at once; a lapsed subscription ends when asked', () => {
    spec
      .given([started, activated])
      .when({ type: 'Cancel', data: { ownerId: 'o1', immediately: false, now } })
      .then([
        {
          type: 'SubscriptionCancelRequested',
          data: { ownerId: 'o1', subscriptionId: 's1', effectiveAt: '2026-04-01T10:00:00.000Z' },
        },
      ]);
    spec
      .given([started, activated])
      .when({ type: 'Cancel', data: { ownerId: 'o1', immediately: true, now } })
      .then([
        { type: 'SubscriptionEnded', data: { ownerId: 'o1', subscriptionId: 's1', endedAt: now, reason: 'cancelled' } },
      ]);
    spec
      .given([])
      .when({ type: 'Cancel', data: { ownerId: 'o1', immediately: false, now } })
      .thenThrows(DomainError, billingMessages.nothingToCancel);
    spec
      .given([started, activated])
      .when({ type: 'EndIfOver', data: { ownerId: 'o1', now: '2026-04-02T00:00:00.000Z' } })
      .then([
        {
          type: 'SubscriptionEnded',
          data: { ownerId: 'o1', subscriptionId: 's1', endedAt: '2026-04-01T10:00:00.000Z', reason: 'period_ended' },
        },
      ]);
    spec
      .given([started, activated])
      .when({ type: 'EndIfOver', data: { ownerId: 'o1', now } })
      .then([]);
  });
});

describe('subscription: Stripe webhooks', () => {
  const snapshot = (over: Partial<StripeSubscriptionSnapshot> = {}): StripeSubscriptionSnapshot => ({
    subscriptionId: 'sub_1',
    customerId: 'cus_1',
    status: 'trialing',
    tier: 'PRO',
    billingPeriod: 'monthly',
    cancelAtPeriodEnd: false,
    currentPeriodStart: now,
    currentPeriodEnd: '2026-03-15T10:00:00.000Z',
    trialEnd: '2026-03-15T10:00:00.000Z',
    checkoutId: 'cs_1',
    ...over,
  });
  const apply = (id: string, created: number, s: StripeSubscriptionSnapshot) => ({
    type: 'ApplyStripeSubscription' as const,
    data: { ownerId: 'o1', event: { stripeEventId: id, type: 'customer.subscription.updated', created }, snapshot: s },
  });
  const fold = (events: SubscriptionEvent[]) =>
    events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
  const run = (commands: ReturnType<typeof apply>[]) => {
    let history: SubscriptionEvent[] = [];
    for (const command of commands) history = [...history, ...subscriptionDecider.decide(command, fold(history))];
    return { history, state: fold(history) };
  };

  it('changes nothing the second time the same event comes', () => {
    const { history } = run([apply('evt_1', 100, snapshot()), apply('evt_1', 100, snapshot())]);
    expect(history.map((e) => e.type)).toEqual(['StripeWebhookReceived', 'SubscriptionActivated']);
  });

  it('ends in the newest state whatever the order the events arrive in', () => {
    const older = apply('evt_1', 100, snapshot());
    const newer = apply(
      'evt_2',
      200,
      snapshot({
        status: 'active',
        trialEnd: null,
        currentPeriodEnd: '2026-04-15T10:00:00.000Z',
        cancelAtPeriodEnd: true,
      }),
    );
    const inOrder = run([older, newer]).state.subscription;
    const reversed = run([newer, older]);
    expect(reversed.state.subscription).toEqual(inOrder);
    expect(reversed.state.subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: '2026-04-15T10:00:00.000Z',
    });
    expect(reversed.history.at(-1)).toMatchObject({ type: 'StripeWebhookReceived', data: { applied: false } });
  });

  const paidInvoice = (stripeEventId: string) => ({
    type: 'ApplyStripePayment' as const,
    data: {
      ownerId: 'o1',
      customerId: 'cus_1',
      event: { stripeEventId, type: 'invoice.paid', created: 150 },
      payment: {
        paid: true as const,
        invoicePdf: 'https://stripe.example/in_2.pdf',
        paymentId: 'in_2',
        description: 'Pro',
        amount: 19_900,
        currency: 'ILS' as const,
        subscriptionId: 'sub_1',
      },
    },
  });
  const webhook = (stripeEventId: string, type: string, outcome: string): SubscriptionEvent => ({
    type: 'StripeWebhookReceived',
    data: { stripeEventId, type, created: 150, ownerId: 'o1', customerId: 'cus_1', applied: true, outcome },
  });

  it('given a paid invoice, then the payment is recorded with its invoice; given it again under another event id, then only the webhook is', () => {
    const first = subscriptionDecider.decide(paidInvoice('evt_p1'), fold([]));
    expect(first).toEqual([
      webhook('evt_p1', 'invoice.paid', 'PaymentSucceeded'),
      {
        type: 'PaymentSucceeded',
        data: {
          ownerId: 'o1',
          paymentId: 'in_2',
          provider: 'stripe',
          subscriptionId: 'sub_1',
          checkoutId: null,
          description: 'Pro',
          amount: 19_900,
          currency: 'ILS',
          invoicePdf: 'https://stripe.example/in_2.pdf',
          cardLast4: null,
          cardHolder: null,
        },
      },
    ]);
    spec
      .given(first)
      .when(paidInvoice('evt_p2'))
      .then([webhook('evt_p2', 'invoice.paid', 'payment already recorded')]);
  });

  it('given a checkout Stripe has not completed (pending), then nothing but the webhook is recorded', () => {
    const { history } = run([apply('evt_1', 100, snapshot({ status: 'pending' }))]);
    expect(history.map((e) => e.type)).toEqual(['StripeWebhookReceived']);
    expect(history[0]).toMatchObject({ data: { applied: true, outcome: 'no change' } });
  });

  it('payment failed → past due; the subscription deleted → ended, and a late update does not bring it back', () => {
    const failed = {
      type: 'ApplyStripePayment' as const,
      data: {
        ownerId: 'o1',
        customerId: 'cus_1',
        event: { stripeEventId: 'evt_f', type: 'invoice.payment_failed', created: 150 },
        payment: {
          paid: false as const,
          reason: 'card_declined',
          paymentId: 'in_1',
          description: 'Pro',
          amount: 19_900,
          currency: 'ILS' as const,
          subscriptionId: 'sub_1',
        },
      },
    };
    let state = fold(run([apply('evt_1', 100, snapshot({ status: 'active' }))]).history);
    const pastDue = subscriptionDecider.decide(failed, state);
    expect(pastDue.map((e) => e.type)).toEqual(['StripeWebhookReceived', 'PaymentDeclined', 'SubscriptionPastDue']);
    state = pastDue.reduce(subscriptionDecider.evolve, state);
    expect(subscriptionDecider.decide(failed, state)).toEqual([]);
    const ended = subscriptionDecider.decide(apply('evt_d', 300, snapshot({ status: 'ended' })), state);
    expect(ended.map((e) => e.type)).toEqual(['StripeWebhookReceived', 'SubscriptionEnded']);
    state = ended.reduce(subscriptionDecider.evolve, state);
    expect(state.subscription).toBeNull();
    expect(
      subscriptionDecider.decide(apply('evt_late', 300, snapshot({ status: 'active' })), state).map((e) => e.type),
    ).toEqual(['StripeWebhookReceived']);
  });
});
