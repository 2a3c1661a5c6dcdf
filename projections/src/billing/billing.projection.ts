import { subscriptionEventTypes } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineBatchProjection, eventsOf, type EventOf } from '../shared/typed-projection.js';

type SubscriptionEventType = (typeof subscriptionEventTypes)[number];
type BillingEvent = EventOf<SubscriptionEventType | 'SubjectErased'>;

/** What an erased personal field reads as (the event-log codec's text; docs/privacy.md). */
const ERASED = '[erased]';

async function insertPayments(db: Queryable, events: readonly EventOf<'PaymentSucceeded' | 'PaymentDeclined'>[]) {
  if (events.length === 0) return;
  const col = (f: (event: EventOf<'PaymentSucceeded' | 'PaymentDeclined'>) => unknown) =>
    events.map((event) => f(event) ?? null);
  await db.query(
    `INSERT INTO billing_payments (payment_id, owner_id, provider, created_at, description, amount, currency, status, invoice_pdf, reason, card_last4, card_holder)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
     ON CONFLICT (payment_id) DO NOTHING`,
    [
      col((e) => e.data.paymentId),
      col((e) => e.data.ownerId),
      col((e) => e.data.provider),
      col((e) => e.metadata.timestamp),
      col((e) => e.data.description),
      col((e) => e.data.amount),
      col((e) => e.data.currency),
      col((e) => (e.type === 'PaymentSucceeded' ? 'succeeded' : 'failed')),
      col((e) => (e.type === 'PaymentSucceeded' ? e.data.invoicePdf : null)),
      col((e) => (e.type === 'PaymentDeclined' ? e.data.reason : null)),
      col((e) => (e.type === 'PaymentSucceeded' ? e.data.cardLast4 : null)),
      col((e) => (e.type === 'PaymentSucceeded' ? e.data.cardHolder : null)),
    ],
  );
}

/** Which customer is whose, from every event that says so (checkout, activation, webhook). */
async function linkCustomers(db: Queryable, events: readonly BillingEvent[]) {
  const links = new Map<string, string>();
  for (const e of eventsOf(events, 'SubscriptionCheckoutStarted', 'SubscriptionActivated', 'StripeWebhookReceived')) {
    const { customerId, ownerId } = e.data;
    if (customerId && ownerId && !links.has(customerId)) links.set(customerId, ownerId);
  }
  if (links.size === 0) return;
  await db.query(
    `INSERT INTO billing_customers (customer_id, owner_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
    [[...links.keys()], [...links.values()]],
  );
}

/**
 * An erased account keeps its payment records (spec part 2: 7 years, exempt from the account's erasure
 * except what the law allows): the amounts, dates, plan, status and the payments service's invoice stay;
 * the card holder's name, sealed under the account's key in the log, reads "[erased]" from then on. The
 * live rows are blanked here as a replay of the shredded log builds them (docs/privacy.md).
 */
async function eraseAccounts(db: Queryable, events: readonly BillingEvent[]) {
  const owners = eventsOf(events, 'SubjectErased')
    .filter((e) => e.data.subject === 'account' && e.data.ownerId !== null)
    .map((e) => e.data.ownerId);
  if (owners.length === 0) return;
  await db.query(
    `UPDATE billing_payments SET card_holder = $2 WHERE owner_id = ANY($1::text[]) AND card_holder IS NOT NULL AND card_holder <> $2`,
    [owners, ERASED],
  );
}

/**
 * Subscription changes (the other events change nothing here), applied event by event, in log order: a subscription's facts depend on the one before (activated,
 * then renewed or ended), and a batch is small (one checkout, one payment, one webhook). A fact about a
 * subscription that is not the owner's current one changes nothing (a late webhook after the end).
 */
async function applyOne(db: Queryable, event: BillingEvent) {
  const at = event.metadata.timestamp;
  const updateLive = (key: { ownerId: string; subscriptionId: string }, set: string, params: unknown[]) =>
    db.query(`UPDATE billing_subscriptions SET ${set} WHERE owner_id = $1 AND subscription_id = $2`, [
      key.ownerId,
      key.subscriptionId,
      ...params,
    ]);
  switch (event.type) {
    case 'SubscriptionActivated': {
      const d = event.data;
      await db.query(
        `INSERT INTO billing_subscriptions (owner_id, subscription_id, provider, tier, billing_period, status, cancel_at_period_end, current_period_start, current_period_end, trial_end, customer_id, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (owner_id) DO UPDATE SET subscription_id = excluded.subscription_id, provider = excluded.provider, tier = excluded.tier, billing_period = excluded.billing_period,
           status = excluded.status, cancel_at_period_end = excluded.cancel_at_period_end, current_period_start = excluded.current_period_start,
           current_period_end = excluded.current_period_end, trial_end = excluded.trial_end, customer_id = coalesce(excluded.customer_id, billing_subscriptions.customer_id), updated_at = excluded.updated_at`,
        [
          d.ownerId,
          d.subscriptionId,
          d.provider,
          d.tier,
          d.billingPeriod,
          d.status,
          d.cancelAtPeriodEnd,
          d.currentPeriodStart,
          d.currentPeriodEnd,
          d.trialEnd,
          d.customerId,
          at,
        ],
      );
      return;
    }
    case 'SubscriptionRenewed':
      await updateLive(
        event.data,
        `status = $3, current_period_start = $4, current_period_end = $5, trial_end = $6, updated_at = $7`,
        [event.data.status, event.data.currentPeriodStart, event.data.currentPeriodEnd, event.data.trialEnd, at],
      );
      return;
    case 'SubscriptionPlanChanged':
      await updateLive(event.data, `tier = $3, billing_period = $4, updated_at = $5`, [
        event.data.tier,
        event.data.billingPeriod,
        at,
      ]);
      return;
    case 'SubscriptionPastDue':
      await updateLive(event.data, `status = 'past_due', updated_at = $3`, [at]);
      return;
    case 'SubscriptionCancelRequested':
      await updateLive(event.data, `cancel_at_period_end = true, updated_at = $3`, [at]);
      return;
    case 'SubscriptionResumed':
      await updateLive(event.data, `cancel_at_period_end = false, updated_at = $3`, [at]);
      return;
    case 'SubscriptionEnded':
      await db.query(`DELETE FROM billing_subscriptions WHERE owner_id = $1 AND subscription_id = $2`, [
        event.data.ownerId,
        event.data.subscriptionId,
      ]);
      return;
    default:
      return;
  }
}

/**
 * Billing: each owner's current paid subscription (no row: the free plan), their payments, and which
 * payments-service customer is whose (so a Stripe webhook naming only a customer finds its owner).
 * The plan book reads the subscription row for every limit check: one primary-key lookup.
 */
export const billingProjection = defineBatchProjection({
  name: 'billing',
  // 2: an erased account's payments keep their row, the card holder's name erased.
  version: 2,
  eventTypes: [...subscriptionEventTypes, 'SubjectErased'],
  tables: ['billing_subscriptions', 'billing_payments', 'billing_customers'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS billing_subscriptions (
  owner_id text PRIMARY KEY,
  subscription_id text NOT NULL,
  provider text NOT NULL,
  tier text NOT NULL,
  billing_period text NOT NULL,
  status text NOT NULL,
  cancel_at_period_end boolean NOT NULL,
  current_period_start text NOT NULL,
  current_period_end text NOT NULL,
  trial_end text,
  customer_id text,
  updated_at text NOT NULL
);
CREATE TABLE IF NOT EXISTS billing_payments (
  payment_id text PRIMARY KEY,
  owner_id text NOT NULL,
  provider text NOT NULL,
  created_at text NOT NULL,
  description text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  status text NOT NULL,
  invoice_pdf text,
  reason text,
  card_last4 text,
  card_holder text
);
CREATE INDEX IF NOT EXISTS billing_payments_owner ON billing_payments (owner_id, created_at DESC);
CREATE TABLE IF NOT EXISTS billing_customers (
  customer_id text PRIMARY KEY,
  owner_id text NOT NULL
);
`,
    },
  ],
  async applyBatch(db, events) {
    // Payments and customer links are independent facts: one statement each per batch (a burst of
    // Stripe invoices is many of them). Subscription changes depend on each other: one by one, in order.
    await insertPayments(db, eventsOf(events, 'PaymentSucceeded', 'PaymentDeclined'));
    await linkCustomers(db, events);
    for (const event of events) await applyOne(db, event);
    // After this batch's payments: an erasure in the same batch covers them too.
    await eraseAccounts(db, events);
  },
});
