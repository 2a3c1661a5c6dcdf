import { z } from 'zod';
import { BillingPeriodSchema, CurrencySchema, PaidTierSchema } from '../rules/plans.js';

/**
 * An owner's subscription (stream `subscription-<ownerId>`): checkouts, the subscription's life, and the
 * payments for it, from either payments service. One stream per owner orders everything billing decides
 * for them, so two checkouts at once, or a Stripe webhook replayed or delivered out of order, are decided
 * one after the other on the same state. All amounts are integer minor units.
 */
const Id = z.string().min(1).max(255);
const Iso = z.iso.datetime();
const Url = z.string().min(1).max(4096);
export const PaymentProviderSchema = z.enum(['stripe', 'test']);
export type PaymentProvider = z.infer<typeof PaymentProviderSchema>;

/** A checkout was opened: the owner is sent to `url` (Stripe Checkout, or the test payment page) to pay. */
export const SubscriptionCheckoutStartedSchema = z.object({
  ownerId: Id,
  checkoutId: Id,
  provider: PaymentProviderSchema,
  tier: PaidTierSchema,
  billingPeriod: BillingPeriodSchema,
  amount: z.number().int().nonnegative(),
  currency: CurrencySchema,
  trialDays: z.number().int().nonnegative(),
  url: Url,
  /** The payments service's customer (Stripe); null with the test payments. */
  customerId: Id.nullable(),
  expiresAt: Iso,
});
export type SubscriptionCheckoutStarted = z.infer<typeof SubscriptionCheckoutStartedSchema>;

const PeriodSchema = z.object({ currentPeriodStart: Iso, currentPeriodEnd: Iso });

/** The owner is on a paid plan from now (`trialing` during a trial). */
export const SubscriptionActivatedSchema = PeriodSchema.extend({
  ownerId: Id,
  subscriptionId: Id,
  provider: PaymentProviderSchema,
  tier: PaidTierSchema,
  billingPeriod: BillingPeriodSchema,
  status: z.enum(['active', 'trialing', 'past_due']),
  cancelAtPeriodEnd: z.boolean(),
  trialEnd: Iso.nullable(),
  customerId: Id.nullable(),
  /** The checkout it came from, when known (a Stripe webhook may announce the subscription first). */
  checkoutId: Id.nullable(),
});
export type SubscriptionActivated = z.infer<typeof SubscriptionActivatedSchema>;

/** A new period began (a renewal was paid, or a trial converted). */
export const SubscriptionRenewedSchema = PeriodSchema.extend({
  ownerId: Id,
  subscriptionId: Id,
  status: z.enum(['active', 'trialing']),
  trialEnd: Iso.nullable(),
});
export type SubscriptionRenewed = z.infer<typeof SubscriptionRenewedSchema>;

/** Plan or billing period changed (Stripe's portal). */
export const SubscriptionPlanChangedSchema = z.object({
  ownerId: Id,
  subscriptionId: Id,
  tier: PaidTierSchema,
  billingPeriod: BillingPeriodSchema,
});
export type SubscriptionPlanChanged = z.infer<typeof SubscriptionPlanChangedSchema>;

/** A renewal's payment failed: the plan's limits hold until the period ends, then the owner is back on FREE. */
export const SubscriptionPastDueSchema = z.object({ ownerId: Id, subscriptionId: Id });
export type SubscriptionPastDue = z.infer<typeof SubscriptionPastDueSchema>;

/** The owner cancelled at the period's end: access continues until `effectiveAt`. */
export const SubscriptionCancelRequestedSchema = z.object({ ownerId: Id, subscriptionId: Id, effectiveAt: Iso });
export type SubscriptionCancelRequested = z.infer<typeof SubscriptionCancelRequestedSchema>;

/** A cancellation at the period's end was taken back (Stripe's portal). */
export const SubscriptionResumedSchema = z.object({ ownerId: Id, subscriptionId: Id });
export type SubscriptionResumed = z.infer<typeof SubscriptionResumedSchema>;

/** The subscription is over; the owner is on FREE. Data is kept: only new things over FREE's limits are refused. */
export const SubscriptionEndedSchema = z.object({
  ownerId: Id,
  subscriptionId: Id,
  endedAt: Iso,
  reason: z.enum(['cancelled', 'payment_failed', 'period_ended']),
});
export type SubscriptionEnded = z.infer<typeof SubscriptionEndedSchema>;

/** Money was taken. `invoicePdf`: Stripe's invoice PDF; null for a test payment (its receipt is made on request). */
export const PaymentSucceededSchema = z.object({
  ownerId: Id,
  paymentId: Id,
  provider: PaymentProviderSchema,
  subscriptionId: Id.nullable(),
  checkoutId: Id.nullable(),
  description: z.string().max(500),
  amount: z.number().int().nonnegative(),
  currency: CurrencySchema,
  invoicePdf: Url.nullable(),
  /** Test payments: the card's last four digits and holder, for the receipt. */
  cardLast4: z
    .string()
    .regex(/^\d{4}$/)
    .nullable(),
  cardHolder: z.string().max(100).nullable(),
});
export type PaymentSucceeded = z.infer<typeof PaymentSucceededSchema>;

/** A charge was refused (declined test card, failed Stripe invoice). Nothing else changes because of it. */
export const PaymentDeclinedSchema = z.object({
  ownerId: Id,
  paymentId: Id,
  provider: PaymentProviderSchema,
  subscriptionId: Id.nullable(),
  checkoutId: Id.nullable(),
  description: z.string().max(500),
  amount: z.number().int().nonnegative(),
  currency: CurrencySchema,
  reason: z.string().max(500),
});
export type PaymentDeclined = z.infer<typeof PaymentDeclinedSchema>;

/**
 * A Stripe webhook whose signature was valid. On the owner's subscription stream, with what it changed
 * (its id makes a replay change nothing); for an unknown customer, on its own `stripeevent-<id>` stream,
 * recorded and ignored. `applied` false says why in `outcome`.
 */
export const StripeWebhookReceivedSchema = z.object({
  stripeEventId: Id,
  type: z.string().max(200),
  /** Stripe's `created` (seconds since the epoch): a subscription snapshot older than the one applied is not applied. */
  created: z.number().int().nonnegative(),
  ownerId: Id.nullable(),
  customerId: Id.nullable(),
  applied: z.boolean(),
  outcome: z.string().max(300),
});
export type StripeWebhookReceived = z.infer<typeof StripeWebhookReceivedSchema>;

/** Every event of an owner's subscription stream, in one list for its decider and its read model. */
export const subscriptionEventTypes = [
  'SubscriptionCheckoutStarted',
  'SubscriptionActivated',
  'SubscriptionRenewed',
  'SubscriptionPlanChanged',
  'SubscriptionPastDue',
  'SubscriptionCancelRequested',
  'SubscriptionResumed',
  'SubscriptionEnded',
  'PaymentSucceeded',
  'PaymentDeclined',
  'StripeWebhookReceived',
] as const;
