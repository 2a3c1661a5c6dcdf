import { randomUUID } from 'node:crypto';
import type { KesherEvent, RecordedEvent } from '@kesher/contracts';
import { billingProjection } from '@kesher/projections/billing/billing.projection';
import { billingQueries } from '@kesher/projections/billing/billing.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../platform/sql/sql.port.js';
import { onEverySqlBackend, type OpenSql } from '../testing/sql-backends.js';

let position = 0n;
const recorded = (event: KesherEvent, timestamp = '2026-03-01T10:00:00.000Z'): RecordedEvent => {
  position++;
  return {
    streamId: 'subscription-o1',
    streamPosition: position,
    position: { commit: position, prepare: position },
    type: event.type,
    data: event.data,
    metadata: {
      eventId: randomUUID(),
      correlationId: 'c',
      causationId: 'c',
      actor: { kind: 'system', id: 'test' },
      timestamp,
      schemaVersion: 1,
    },
    createdAt: new Date(timestamp),
  };
};

const period = { currentPeriodStart: '2026-03-01T10:00:00.000Z', currentPeriodEnd: '2026-04-01T10:00:00.000Z' };
const activated = (ownerId: string, subscriptionId: string): KesherEvent => ({
  type: 'SubscriptionActivated',
  data: {
    ownerId,
    subscriptionId,
    provider: 'stripe',
    tier: 'PRO',
    billingPeriod: 'monthly',
    status: 'trialing',
    cancelAtPeriodEnd: false,
    trialEnd: period.currentPeriodEnd,
    customerId: `cus_${ownerId}`,
    checkoutId: null,
    ...period,
  },
});
const paid = (ownerId: string, paymentId: string): KesherEvent => ({
  type: 'PaymentSucceeded',
  data: {
    ownerId,
    paymentId,
    provider: 'stripe',
    subscriptionId: 's1',
    checkoutId: null,
    description: 'Pro plan, monthly',
    amount: 19_900,
    currency: 'ILS',
    invoicePdf: `https://pay.stripe.com/invoice/${paymentId}/pdf`,
    cardLast4: null,
    cardHolder: null,
  },
});

function suite(name: string, open: OpenSql) {
  describe(`billing read model on ${name}`, () => {
    let sql: Sql;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ sql, close } = await open());
      for (const migration of billingProjection.migrations) await sql.exec(migration.sql);
    });
    afterAll(async () => close?.());

    it("keeps each owner's subscription, payments (a batch written once) and customers apart; a late fact about an ended subscription changes nothing", async () => {
      const q = billingQueries(sql);
      await billingProjection.apply(sql, [
        recorded(activated('o1', 's1')),
        recorded(paid('o1', 'in_1'), '2026-03-01T10:00:00.000Z'),
        recorded(paid('o1', 'in_2'), '2026-03-02T10:00:00.000Z'),
        recorded({
          type: 'SubscriptionRenewed',
          data: {
            ownerId: 'o1',
            subscriptionId: 's1',
            status: 'active',
            trialEnd: null,
            currentPeriodStart: '2026-03-15T10:00:00.000Z',
            currentPeriodEnd: '2026-04-15T10:00:00.000Z',
          },
        }),
        recorded({
          type: 'SubscriptionCancelRequested',
          data: { ownerId: 'o1', subscriptionId: 's1', effectiveAt: '2026-04-15T10:00:00.000Z' },
        }),
        recorded(activated('o2', 's2')),
      ]);
      expect(await q.subscriptionOf('o1')).toMatchObject({
        subscription_id: 's1',
        status: 'active',
        cancel_at_period_end: true,
        current_period_end: '2026-04-15T10:00:00.000Z',
        trial_end: null,
        customer_id: 'cus_o1',
      });
      expect((await q.paymentsOf('o1', 5)).map((p) => [p.payment_id, p.amount, p.status])).toEqual([
        ['in_2', 19_900, 'succeeded'],
        ['in_1', 19_900, 'succeeded'],
      ]);
      expect(await q.paymentsOf('o2', 5)).toEqual([]);
      expect(await q.payment('o2', 'in_1')).toBeNull();
      expect(await q.ownerOfCustomer('cus_o2')).toBe('o2');

      // Applying the same payment again (a replay of the log) adds nothing; the end removes the row; a late update does nothing.
      await billingProjection.apply(sql, [
        recorded(paid('o1', 'in_1')),
        recorded({
          type: 'SubscriptionEnded',
          data: { ownerId: 'o1', subscriptionId: 's1', endedAt: '2026-04-15T10:00:00.000Z', reason: 'cancelled' },
        }),
        recorded({ type: 'SubscriptionPastDue', data: { ownerId: 'o1', subscriptionId: 's1' } }),
      ]);
      expect(await q.paymentsOf('o1', 5)).toHaveLength(2);
      expect(await q.subscriptionOf('o1')).toBeNull();
      expect(await q.subscriptionOf('o2')).toMatchObject({ status: 'trialing' });
    });
  });
}

await onEverySqlBackend('billing read model', suite);
