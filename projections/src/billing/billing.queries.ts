import type { Queryable } from '@kesher/contracts/ports/projection';

export interface SubscriptionRow {
  owner_id: string;
  subscription_id: string;
  provider: 'stripe' | 'test';
  tier: 'PRO' | 'ENTERPRISE';
  billing_period: 'monthly' | 'yearly';
  status: 'active' | 'trialing' | 'past_due';
  cancel_at_period_end: boolean;
  current_period_start: string;
  current_period_end: string;
  trial_end: string | null;
  customer_id: string | null;
}

export interface PaymentRow {
  payment_id: string;
  owner_id: string;
  provider: 'stripe' | 'test';
  created_at: string;
  description: string;
  amount: number;
  currency: 'ILS' | 'USD';
  status: 'succeeded' | 'failed';
  invoice_pdf: string | null;
  reason: string | null;
  card_last4: string | null;
  card_holder: string | null;
}

export function billingQueries(db: Queryable) {
  return {
    /** The owner's current paid subscription, or null (the free plan). */
    async subscriptionOf(ownerId: string): Promise<SubscriptionRow | null> {
      const { rows } = await db.query<SubscriptionRow>(`SELECT * FROM billing_subscriptions WHERE owner_id = $1`, [
        ownerId,
      ]);
      return rows[0] ?? null;
    },
    /** The owner's payments, newest first. */
    async paymentsOf(ownerId: string, limit: number): Promise<PaymentRow[]> {
      const { rows } = await db.query<PaymentRow>(
        `SELECT * FROM billing_payments WHERE owner_id = $1 ORDER BY created_at DESC, payment_id LIMIT $2`,
        [ownerId, limit],
      );
      return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
    },
    /** One payment of the owner's (another owner's payment is not found). */
    async payment(ownerId: string, paymentId: string): Promise<PaymentRow | null> {
      const { rows } = await db.query<PaymentRow>(
        `SELECT * FROM billing_payments WHERE owner_id = $1 AND payment_id = $2`,
        [ownerId, paymentId],
      );
      return rows[0] ? { ...rows[0], amount: Number(rows[0].amount) } : null;
    },
    async paymentById(paymentId: string): Promise<PaymentRow | null> {
      const { rows } = await db.query<PaymentRow>(`SELECT * FROM billing_payments WHERE payment_id = $1`, [paymentId]);
      return rows[0] ? { ...rows[0], amount: Number(rows[0].amount) } : null;
    },
    async ownerOfCustomer(customerId: string): Promise<string | null> {
      const { rows } = await db.query<{ owner_id: string }>(
        `SELECT owner_id FROM billing_customers WHERE customer_id = $1`,
        [customerId],
      );
      return rows[0]?.owner_id ?? null;
    },
  };
}

export type BillingQueries = ReturnType<typeof billingQueries>;
