import { subscriptionEventTypes, type RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';

const EVENT_TYPES: readonly string[] = subscriptionEventTypes;

type Data = Record<string, unknown>;

const SUBSCRIPTION_CHANGES = new Set(
  EVENT_TYPES.filter((t) => t.startsWith('Subscription') && t !== 'SubscriptionCheckoutStarted'),
);

async function insertPayments(db: Queryable, events: readonly RecordedEvent[]) {
  if (events.length === 0) return;
  const d = events.map((e) => e.data as Data);
  const col = (f: (data: Data, event: RecordedEvent) => unknown) => d.map((data, i) => f(data, events[i]!) ?? null);
  await db.query(
    `INSERT INTO billing_payments (payment_id, owner_id, provider, created_at, description, amount, currency, status, invoice_pdf, reason, card_last4, card_holder)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
     ON CONFLICT (payment_id) DO NOTHING`,
    [
      col((x) => x.paymentId),
      col((x) => x.ownerId),
      col((x) => x.provider),
      col((_x, e) => e.metadata.timestamp),
      col((x) => x.description),
      col((x) => x.amount),
      col((x) => x.currency),
      col((_x, e) => (e.type === 'PaymentSucceeded' ? 'succeeded' : 'failed')),
      col((x) => x.invoicePdf),
      col((x) => x.reason),
      col((x) => x.cardLast4),
      col((x) => x.cardHolder),
    ],
  );
}

/** Which customer is whose, from every event that says so (checkout, activation, webhook). */
async function linkCustomers(db: Queryable, events: readonly RecordedEvent[]) {
  const links = new Map<string, string>();
  for (const e of events) {
    const d = e.data as Data;
    if (
      typeof d.customerId === 'string' &&
      typeof d.ownerId === 'string' &&
      (e.type === 'SubscriptionCheckoutStarted' ||
        e.type === 'SubscriptionActivated' ||
        e.type === 'StripeWebhookReceived')
    ) {
      if (!links.has(d.customerId)) links.set(d.customerId, d.ownerId);
    }
  }
  if (links.size === 0) return;
  await db.query(
    `INSERT INTO billing_customers (customer_id, owner_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
    [[...links.keys()], [...links.values()]],
  );
}

/**
 * Subscription changes, applied event by event, in log order: a subscription's facts depend on the one before (activated,
 * then renewed or ended), and a batch is small (one checkout, one payment, one webhook). A fact about a
 * subscription that is not the owner's current one changes nothing (a late webhook after the end).
 */
async function applyOne(db: Queryable, event: RecordedEvent) {
  const d = event.data as Data;
  const at = event.metadata.timestamp;
  const updateLive = (set: string, params: unknown[]) =>
    db.query(`UPDATE billing_subscriptions SET ${set} WHERE owner_id = $1 AND subscription_id = $2`, [
      d.ownerId,
      d.subscriptionId,
      ...params,
    ]);
  switch (event.type) {
    case 'SubscriptionActivated':
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
    case 'SubscriptionRenewed':
      await updateLive(
        `status = $3, current_period_start = $4, current_period_end = $5, trial_end = $6, updated_at = $7`,
        [d.status, d.currentPeriodStart, d.currentPeriodEnd, d.trialEnd, at],
      );
      return;
    case 'SubscriptionPlanChanged':
      await updateLive(`tier = $3, billing_period = $4, updated_at = $5`, [d.tier, d.billingPeriod, at]);
      return;
    case 'SubscriptionPastDue':
      await updateLive(`status = 'past_due', updated_at = $3`, [at]);
      return;
    case 'SubscriptionCancelRequested':
      await updateLive(`cancel_at_period_end = true, updated_at = $3`, [at]);
      return;
    case 'SubscriptionResumed':
      await updateLive(`cancel_at_period_end = false, updated_at = $3`, [at]);
      return;
    case 'SubscriptionEnded':
      await db.query(`DELETE FROM billing_subscriptions WHERE owner_id = $1 AND subscription_id = $2`, [
        d.ownerId,
        d.subscriptionId,
      ]);
      return;
  }
}

/**
 * Billing: each owner's current paid subscription (no row: the free plan), their payments, and which
 * payments-service customer is whose (so a Stripe webhook naming only a customer finds its owner).
 * The plan book reads the subscription row for every limit check: one primary-key lookup.
 */
export const billingProjection: Projection = {
  name: 'billing',
  version: 1,
  eventTypes: EVENT_TYPES,
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
  async apply(db, events) {
    // Payments and customer links are independent facts: one statement each per batch (a burst of
    // Stripe invoices is many of them). Subscription changes depend on each other: one by one, in order.
    await insertPayments(
      db,
      events.filter((e) => e.type === 'PaymentSucceeded' || e.type === 'PaymentDeclined'),
    );
    await linkCustomers(db, events);
    for (const event of events) if (SUBSCRIPTION_CHANGES.has(event.type)) await applyOne(db, event);
  },
};
