import { z } from 'zod';
import type { StripeSubscriptionSnapshot } from '../domain/subscription/subscription.decider.js';

/**
 * The fields Kesher reads from Stripe's objects, parsed with zod rather than trusted (a webhook body is
 * input like any other). Only what is read is declared; Stripe's other fields pass by. The period moved
 * from the subscription to its items in API version 2025-03-31; both places are read.
 */
const Metadata = z.record(z.string(), z.string()).nullish();
const Expandable = z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish();
export const idOf = (value: z.infer<typeof Expandable>) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const SubscriptionItem = z
  .object({
    current_period_start: z.number().int().nullish(),
    current_period_end: z.number().int().nullish(),
    price: z
      .object({
        recurring: z.object({ interval: z.string() }).loose().nullish(),
        lookup_key: z.string().nullish(),
        metadata: Metadata,
      })
      .loose()
      .nullish(),
  })
  .loose();

export const StripeSubscriptionSchema = z
  .object({
    id: z.string().min(1),
    customer: Expandable,
    status: z.string(),
    cancel_at_period_end: z.boolean().nullish(),
    current_period_start: z.number().int().nullish(),
    current_period_end: z.number().int().nullish(),
    trial_end: z.number().int().nullish(),
    metadata: Metadata,
    items: z
      .object({ data: z.array(SubscriptionItem) })
      .loose()
      .nullish(),
  })
  .loose();
export type StripeSubscription = z.infer<typeof StripeSubscriptionSchema>;

export const StripeCheckoutSessionSchema = z
  .object({
    id: z.string().min(1),
    customer: Expandable,
    subscription: Expandable,
    client_reference_id: z.string().nullish(),
    metadata: Metadata,
    mode: z.string().nullish(),
  })
  .loose();

export const StripeInvoiceSchema = z
  .object({
    id: z.string().min(1),
    customer: Expandable,
    amount_paid: z.number().int().nonnegative().nullish(),
    amount_due: z.number().int().nonnegative().nullish(),
    currency: z.string(),
    invoice_pdf: z.string().nullish(),
    description: z.string().nullish(),
    subscription: Expandable,
    subscription_details: z.object({ metadata: Metadata }).loose().nullish(),
    parent: z
      .object({ subscription_details: z.object({ subscription: Expandable, metadata: Metadata }).loose().nullish() })
      .loose()
      .nullish(),
    lines: z
      .object({ data: z.array(z.object({ description: z.string().nullish() }).loose()) })
      .loose()
      .nullish(),
    last_finalization_error: z.object({ message: z.string().nullish() }).loose().nullish(),
  })
  .loose();
export type StripeInvoice = z.infer<typeof StripeInvoiceSchema>;

export const StripeEventSchema = z
  .object({
    id: z.string().min(1),
    type: z.string(),
    created: z.number().int().nonnegative(),
    data: z.object({ object: z.unknown() }),
  })
  .loose();

const iso = (seconds: number | null | undefined) => (seconds == null ? null : new Date(seconds * 1000).toISOString());

const STATUS: Record<string, StripeSubscriptionSnapshot['status']> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  unpaid: 'past_due',
  canceled: 'ended',
  incomplete_expired: 'ended',
  incomplete: 'pending',
  paused: 'pending',
};

/** What a Stripe subscription object says, in the decider's terms. `tier` is the one checkout wrote in its metadata. */
export function snapshotOf(subscription: StripeSubscription, checkoutId: string | null): StripeSubscriptionSnapshot {
  const item = subscription.items?.data[0];
  const tierText = (
    subscription.metadata?.tier ??
    item?.price?.metadata?.tier ??
    item?.price?.lookup_key ??
    ''
  ).toUpperCase();
  const start = subscription.current_period_start ?? item?.current_period_start ?? 0;
  const end = subscription.current_period_end ?? item?.current_period_end ?? start;
  return {
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer),
    status: STATUS[subscription.status] ?? 'pending',
    tier: tierText.includes('ENTERPRISE') ? 'ENTERPRISE' : 'PRO',
    billingPeriod: item?.price?.recurring?.interval === 'year' ? 'yearly' : 'monthly',
    cancelAtPeriodEnd: subscription.cancel_at_period_end ?? false,
    currentPeriodStart: iso(start)!,
    currentPeriodEnd: iso(end)!,
    trialEnd: iso(subscription.trial_end),
    checkoutId,
  };
}

/** The subscription an invoice bills and the owner its metadata names (both places Stripe has put them). */
export function invoiceSubscription(invoice: StripeInvoice): { subscriptionId: string | null; ownerId: string | null } {
  const details = invoice.parent?.subscription_details;
  return {
    subscriptionId: idOf(invoice.subscription) ?? idOf(details?.subscription),
    ownerId: details?.metadata?.owner_id ?? invoice.subscription_details?.metadata?.owner_id ?? null,
  };
}
