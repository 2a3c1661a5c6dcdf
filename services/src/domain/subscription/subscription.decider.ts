import {
  subscriptionEventTypes,
  type BillingPeriod,
  type Currency,
  type PaidTier,
  type PaymentProvider,
} from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * An owner's subscription, decided on one stream per owner (`subscription-<ownerId>`): two checkouts at
 * once, a payment posted twice, a Stripe webhook replayed or delivered out of order all meet the same
 * state one after the other (the append's expected revision serialises them), so the owner ends with one
 * subscription and each payment or webhook changes things once.
 */
export interface OpenCheckout {
  checkoutId: string;
  provider: PaymentProvider;
  tier: PaidTier;
  billingPeriod: BillingPeriod;
  amount: number;
  currency: Currency;
  url: string;
  customerId: string | null;
  expiresAt: string;
}

export interface LiveSubscription {
  subscriptionId: string;
  provider: PaymentProvider;
  tier: PaidTier;
  billingPeriod: BillingPeriod;
  status: 'active' | 'trialing' | 'past_due';
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  trialEnd: string | null;
  checkoutId: string | null;
}

export interface SubscriptionState {
  /** The checkout the owner was last sent to and has not paid yet. */
  checkout: OpenCheckout | null;
  /** Checkouts already turned into a subscription: paying one again changes nothing. */
  paidCheckouts: ReadonlySet<string>;
  subscription: LiveSubscription | null;
  /** Subscriptions that ended: a late webhook about one does not bring it back. */
  endedSubscriptions: ReadonlySet<string>;
  customerId: string | null;
  payments: ReadonlySet<string>;
  stripeEvents: ReadonlySet<string>;
  /** `created` of the newest Stripe subscription snapshot applied: an older one is not applied. */
  stripeSnapshotAt: number;
}

/** What Stripe says a subscription is, as its webhook or the API carries it (read by the Stripe adapter). */
export interface StripeSubscriptionSnapshot {
  subscriptionId: string;
  customerId: string | null;
  status: 'active' | 'trialing' | 'past_due' | 'ended' | 'pending';
  tier: PaidTier;
  billingPeriod: BillingPeriod;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  trialEnd: string | null;
  checkoutId: string | null;
}

export interface StripeEventInfo {
  stripeEventId: string;
  type: string;
  created: number;
}

export interface PaymentFacts {
  paymentId: string;
  description: string;
  amount: number;
  currency: Currency;
  subscriptionId: string | null;
}

export type SubscriptionCommand =
  | { type: 'StartCheckout'; data: OpenCheckout & { ownerId: string; trialDays: number; now: string } }
  | {
      type: 'PayTestCheckout';
      data: {
        ownerId: string;
        checkoutId: string;
        paymentId: string;
        subscriptionId: string;
        outcome: { paid: true; cardLast4: string; cardHolder: string } | { paid: false; reason: string };
        now: string;
      };
    }
  | { type: 'Cancel'; data: { ownerId: string; immediately: boolean; now: string } }
  | { type: 'EndIfOver'; data: { ownerId: string; now: string } }
  | {
      type: 'ApplyStripeSubscription';
      data: { ownerId: string; event: StripeEventInfo; snapshot: StripeSubscriptionSnapshot };
    }
  | {
      type: 'ApplyStripePayment';
      data: {
        ownerId: string;
        event: StripeEventInfo;
        customerId: string | null;
        payment: PaymentFacts & ({ paid: true; invoicePdf: string | null } | { paid: false; reason: string });
      };
    };

export type SubscriptionEvent = EventOf<(typeof subscriptionEventTypes)[number]>;

export const billingMessages = {
  alreadySubscribed: 'You already have a subscription. Change or cancel it from the Billing page.',
  checkoutGone: 'This checkout is no longer valid. Please choose a plan again on the pricing page.',
  checkoutExpired: 'This checkout has expired. Please choose a plan again on the pricing page.',
  nothingToCancel: 'You have no subscription to cancel.',
} as const;

/** A paid subscription still gives its plan at `now`: it is live and its period has not ended while it was not renewing. */
export function subscriptionLapsed(subscription: LiveSubscription, now: string): boolean {
  if (subscription.currentPeriodEnd > now) return false;
  // Stripe renews on its own and says so by webhook; a test payment, a cancelled or an unpaid one does not renew.
  return subscription.provider === 'test' || subscription.cancelAtPeriodEnd || subscription.status === 'past_due';
}

const added = <T>(set: ReadonlySet<T>, value: T) => new Set([...set, value]);

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  eventTypes: subscriptionEventTypes,
  initialState: () => ({
    checkout: null,
    paidCheckouts: new Set(),
    subscription: null,
    endedSubscriptions: new Set(),
    customerId: null,
    payments: new Set(),
    stripeEvents: new Set(),
    stripeSnapshotAt: 0,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'SubscriptionCheckoutStarted': {
        const { ownerId: _o, trialDays: _t, ...checkout } = event.data;
        return { ...state, checkout, customerId: event.data.customerId ?? state.customerId };
      }
      case 'SubscriptionActivated': {
        const d = event.data;
        const paid = d.checkoutId ? added(state.paidCheckouts, d.checkoutId) : state.paidCheckouts;
        return {
          ...state,
          checkout: state.checkout && paid.has(state.checkout.checkoutId) ? null : state.checkout,
          paidCheckouts: paid,
          customerId: d.customerId ?? state.customerId,
          subscription: {
            subscriptionId: d.subscriptionId,
            provider: d.provider,
            tier: d.tier,
            billingPeriod: d.billingPeriod,
            status: d.status,
            cancelAtPeriodEnd: d.cancelAtPeriodEnd,
            currentPeriodStart: d.currentPeriodStart,
            currentPeriodEnd: d.currentPeriodEnd,
            trialEnd: d.trialEnd,
            checkoutId: d.checkoutId,
          },
        };
      }
      case 'SubscriptionRenewed':
        return state.subscription?.subscriptionId !== event.data.subscriptionId
          ? state
          : {
              ...state,
              subscription: {
                ...state.subscription,
                status: event.data.status,
                currentPeriodStart: event.data.currentPeriodStart,
                currentPeriodEnd: event.data.currentPeriodEnd,
                trialEnd: event.data.trialEnd,
              },
            };
      case 'SubscriptionPlanChanged':
        return state.subscription?.subscriptionId !== event.data.subscriptionId
          ? state
          : {
              ...state,
              subscription: { ...state.subscription, tier: event.data.tier, billingPeriod: event.data.billingPeriod },
            };
      case 'SubscriptionPastDue':
        return state.subscription?.subscriptionId !== event.data.subscriptionId
          ? state
          : { ...state, subscription: { ...state.subscription, status: 'past_due' } };
      case 'SubscriptionCancelRequested':
        return state.subscription?.subscriptionId !== event.data.subscriptionId
          ? state
          : { ...state, subscription: { ...state.subscription, cancelAtPeriodEnd: true } };
      case 'SubscriptionResumed':
        return state.subscription?.subscriptionId !== event.data.subscriptionId
          ? state
          : { ...state, subscription: { ...state.subscription, cancelAtPeriodEnd: false } };
      case 'SubscriptionEnded':
        return {
          ...state,
          endedSubscriptions: added(state.endedSubscriptions, event.data.subscriptionId),
          subscription: state.subscription?.subscriptionId === event.data.subscriptionId ? null : state.subscription,
        };
      case 'PaymentSucceeded':
      case 'PaymentDeclined':
        return { ...state, payments: added(state.payments, event.data.paymentId) };
      case 'StripeWebhookReceived':
        return {
          ...state,
          stripeEvents: added(state.stripeEvents, event.data.stripeEventId),
          customerId: event.data.customerId ?? state.customerId,
          stripeSnapshotAt:
            event.data.applied && event.data.type.startsWith('customer.subscription.')
              ? Math.max(state.stripeSnapshotAt, event.data.created)
              : state.stripeSnapshotAt,
        };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'StartCheckout': {
        const { ownerId, trialDays, now, ...checkout } = command.data;
        if (state.subscription && !subscriptionLapsed(state.subscription, now))
          throw new DomainError('conflict', billingMessages.alreadySubscribed);
        const open = state.checkout;
        // The same plan asked for again while its checkout is open: the same checkout (two clicks, two tabs).
        if (
          open &&
          open.expiresAt > now &&
          open.provider === checkout.provider &&
          open.tier === checkout.tier &&
          open.billingPeriod === checkout.billingPeriod
        )
          return [];
        const ended = lapsedEnd(state, ownerId, now);
        return [...ended, { type: 'SubscriptionCheckoutStarted', data: { ownerId, trialDays, ...checkout } }];
      }

      case 'PayTestCheckout': {
        const { ownerId, checkoutId, paymentId, subscriptionId, outcome, now } = command.data;
        if (state.payments.has(paymentId) || state.paidCheckouts.has(checkoutId)) return [];
        const open = state.checkout;
        if (!open || open.checkoutId !== checkoutId || open.provider !== 'test')
          throw new DomainError('conflict', billingMessages.checkoutGone);
        if (open.expiresAt <= now) throw new DomainError('conflict', billingMessages.checkoutExpired);
        const description = paymentDescription(open.tier, open.billingPeriod);
        const money = {
          ownerId,
          paymentId,
          provider: 'test' as const,
          checkoutId,
          description,
          amount: open.amount,
          currency: open.currency,
        };
        if (!outcome.paid)
          return [{ type: 'PaymentDeclined', data: { ...money, subscriptionId: null, reason: outcome.reason } }];
        if (state.subscription && !subscriptionLapsed(state.subscription, now))
          throw new DomainError('conflict', billingMessages.alreadySubscribed);
        return [
          ...lapsedEnd(state, ownerId, now),
          {
            type: 'PaymentSucceeded',
            data: {
              ...money,
              subscriptionId,
              invoicePdf: null,
              cardLast4: outcome.cardLast4,
              cardHolder: outcome.cardHolder,
            },
          },
          {
            type: 'SubscriptionActivated',
            data: {
              ownerId,
              subscriptionId,
              provider: 'test',
              tier: open.tier,
              billingPeriod: open.billingPeriod,
              status: 'active',
              cancelAtPeriodEnd: false,
              currentPeriodStart: now,
              // The period the owner chose at checkout (recorded server-side), never the payment form's copy.
              currentPeriodEnd: periodEndAfter(now, open.billingPeriod),
              trialEnd: null,
              customerId: null,
              checkoutId,
            },
          },
        ];
      }

      case 'Cancel': {
        const { ownerId, immediately, now } = command.data;
        const live = state.subscription;
        if (!live || subscriptionLapsed(live, now)) throw new DomainError('conflict', billingMessages.nothingToCancel);
        if (immediately)
          return [
            {
              type: 'SubscriptionEnded',
              data: { ownerId, subscriptionId: live.subscriptionId, endedAt: now, reason: 'cancelled' },
            },
          ];
        if (live.cancelAtPeriodEnd) return [];
        return [
          {
            type: 'SubscriptionCancelRequested',
            data: { ownerId, subscriptionId: live.subscriptionId, effectiveAt: live.currentPeriodEnd },
          },
        ];
      }

      case 'EndIfOver':
        return lapsedEnd(state, command.data.ownerId, command.data.now);

      case 'ApplyStripeSubscription': {
        const { ownerId, event, snapshot } = command.data;
        if (state.stripeEvents.has(event.stripeEventId)) return [];
        const received = (applied: boolean, outcome: string): SubscriptionEvent => ({
          type: 'StripeWebhookReceived',
          data: {
            stripeEventId: event.stripeEventId,
            type: event.type,
            created: event.created,
            ownerId,
            customerId: snapshot.customerId,
            applied,
            outcome,
          },
        });
        // Stripe does not promise order: a snapshot older than the one applied says nothing new.
        if (event.created < state.stripeSnapshotAt) return [received(false, 'older than the state already applied')];
        const changes = stripeChanges(ownerId, state, snapshot);
        return [received(true, changes.length ? changes.map((c) => c.type).join(', ') : 'no change'), ...changes];
      }

      case 'ApplyStripePayment': {
        const { ownerId, event, payment, customerId } = command.data;
        if (state.stripeEvents.has(event.stripeEventId)) return [];
        const received = (outcome: string): SubscriptionEvent => ({
          type: 'StripeWebhookReceived',
          data: {
            stripeEventId: event.stripeEventId,
            type: event.type,
            created: event.created,
            ownerId,
            customerId,
            applied: true,
            outcome,
          },
        });
        if (state.payments.has(payment.paymentId)) return [received('payment already recorded')];
        const money = {
          ownerId,
          paymentId: payment.paymentId,
          provider: 'stripe' as const,
          subscriptionId: payment.subscriptionId,
          checkoutId: null,
          description: payment.description,
          amount: payment.amount,
          currency: payment.currency,
        };
        if (payment.paid)
          return [
            received('PaymentSucceeded'),
            {
              type: 'PaymentSucceeded',
              data: { ...money, invoicePdf: payment.invoicePdf, cardLast4: null, cardHolder: null },
            },
          ];
        const live = state.subscription;
        const pastDue: SubscriptionEvent[] =
          live && live.subscriptionId === payment.subscriptionId && live.status !== 'past_due'
            ? [{ type: 'SubscriptionPastDue', data: { ownerId, subscriptionId: live.subscriptionId } }]
            : [];
        return [
          received(['PaymentDeclined', ...pastDue.map((e) => e.type)].join(', ')),
          { type: 'PaymentDeclined', data: { ...money, reason: payment.reason } },
          ...pastDue,
        ];
      }
    }
  },
};

/** When a period bought at `start` ends: a month or a year later (UTC calendar months). */
export function periodEndAfter(start: string, period: BillingPeriod): string {
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + (period === 'yearly' ? 12 : 1));
  return end.toISOString();
}

export const paymentDescription = (tier: PaidTier, period: BillingPeriod) =>
  `${tier === 'PRO' ? 'Pro' : 'Enterprise'} plan, ${period === 'monthly' ? 'monthly' : 'yearly'}`;

/** A subscription whose period is over without renewal ends (recorded so the log says when the owner went back to FREE). */
function lapsedEnd(state: SubscriptionState, ownerId: string, now: string): SubscriptionEvent[] {
  const live = state.subscription;
  if (!live || !subscriptionLapsed(live, now)) return [];
  const reason = live.status === 'past_due' ? 'payment_failed' : live.cancelAtPeriodEnd ? 'cancelled' : 'period_ended';
  return [
    {
      type: 'SubscriptionEnded',
      data: { ownerId, subscriptionId: live.subscriptionId, endedAt: live.currentPeriodEnd, reason },
    },
  ];
}

/** The events that bring the state to what Stripe's snapshot says. */
function stripeChanges(ownerId: string, state: SubscriptionState, s: StripeSubscriptionSnapshot): SubscriptionEvent[] {
  const live = state.subscription;
  const id = s.subscriptionId;
  if (s.status === 'pending') return [];
  if (s.status === 'ended') {
    return live?.subscriptionId === id
      ? [
          {
            type: 'SubscriptionEnded',
            data: {
              ownerId,
              subscriptionId: id,
              endedAt: s.currentPeriodEnd,
              reason: live.status === 'past_due' ? 'payment_failed' : 'cancelled',
            },
          },
        ]
      : [];
  }
  if (state.endedSubscriptions.has(id)) return [];
  if (live?.subscriptionId !== id) {
    return [
      {
        type: 'SubscriptionActivated',
        data: {
          ownerId,
          subscriptionId: id,
          provider: 'stripe',
          tier: s.tier,
          billingPeriod: s.billingPeriod,
          status: s.status,
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
          currentPeriodStart: s.currentPeriodStart,
          currentPeriodEnd: s.currentPeriodEnd,
          trialEnd: s.trialEnd,
          customerId: s.customerId,
          checkoutId: s.checkoutId ?? (state.checkout?.provider === 'stripe' ? state.checkout.checkoutId : null),
        },
      },
    ];
  }
  const changes: SubscriptionEvent[] = [];
  if (live.tier !== s.tier || live.billingPeriod !== s.billingPeriod)
    changes.push({
      type: 'SubscriptionPlanChanged',
      data: { ownerId, subscriptionId: id, tier: s.tier, billingPeriod: s.billingPeriod },
    });
  if (s.status === 'past_due' && live.status !== 'past_due')
    changes.push({ type: 'SubscriptionPastDue', data: { ownerId, subscriptionId: id } });
  if (
    s.status !== 'past_due' &&
    (live.status !== s.status || live.currentPeriodEnd !== s.currentPeriodEnd || live.trialEnd !== s.trialEnd)
  ) {
    changes.push({
      type: 'SubscriptionRenewed',
      data: {
        ownerId,
        subscriptionId: id,
        status: s.status,
        currentPeriodStart: s.currentPeriodStart,
        currentPeriodEnd: s.currentPeriodEnd,
        trialEnd: s.trialEnd,
      },
    });
  }
  if (s.cancelAtPeriodEnd && !live.cancelAtPeriodEnd)
    changes.push({
      type: 'SubscriptionCancelRequested',
      data: { ownerId, subscriptionId: id, effectiveAt: s.currentPeriodEnd },
    });
  if (!s.cancelAtPeriodEnd && live.cancelAtPeriodEnd)
    changes.push({ type: 'SubscriptionResumed', data: { ownerId, subscriptionId: id } });
  return changes;
}
