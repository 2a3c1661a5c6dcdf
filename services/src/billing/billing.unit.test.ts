import { TEST_CARDS } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { createReceiptLinks } from './receipt-links.js';
import { snapshotOf, StripeSubscriptionSchema } from './stripe-objects.js';
import { cardExpired, judgeTestCard } from './test-cards.js';

describe('test cards', () => {
  it('pays with the success card, declines the declined card, refuses any other number with the hint', () => {
    expect(judgeTestCard({ number: TEST_CARDS.success })).toEqual({ paid: true, cardLast4: '4580' });
    expect(judgeTestCard({ number: TEST_CARDS.declined })).toEqual({
      paid: false,
      reason: 'Your card was declined. Please try a different card.',
    });
    expect(judgeTestCard({ number: '4111111111111111' })).toMatchObject({
      paid: false,
      reason: expect.stringContaining(TEST_CARDS.success),
    });
  });

  it('takes a card as good through the last day of its expiry month (UTC)', () => {
    expect(cardExpired('03/26', new Date('2026-03-31T23:59:59Z'))).toBe(false);
    expect(cardExpired('03/26', new Date('2026-04-01T00:00:00Z'))).toBe(true);
    expect(cardExpired('12/35', new Date('2026-04-01T00:00:00Z'))).toBe(false);
  });
});

describe('receipt links', () => {
  it("open only for the payment and owner they were made for, and only with this deployment's secret", () => {
    const links = createReceiptLinks({ secret: new TextEncoder().encode('a'.repeat(40)) });
    const url = links.url('pay_1', 'owner-1');
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    expect(url).toMatch(/^\/api\/v1\/subscriptions\/receipts\/pay_1\.pdf\?sig=/);
    expect(links.verify('pay_1', 'owner-1', sig)).toBe(true);
    expect(links.verify('pay_1', 'owner-2', sig)).toBe(false);
    expect(links.verify('pay_2', 'owner-1', sig)).toBe(false);
    expect(
      createReceiptLinks({ secret: new TextEncoder().encode('b'.repeat(40)) }).verify('pay_1', 'owner-1', sig),
    ).toBe(false);
  });
});

describe("Stripe's subscription object", () => {
  it('reads the period from the items (API 2025-03-31+) or the subscription (older versions), and maps the statuses', () => {
    const items = {
      data: [
        {
          current_period_start: 1_772_000_000,
          current_period_end: 1_774_592_000,
          price: { recurring: { interval: 'year' } },
        },
      ],
    };
    const modern = snapshotOf(
      StripeSubscriptionSchema.parse({
        id: 'sub_1',
        customer: 'cus_1',
        status: 'past_due',
        metadata: { tier: 'ENTERPRISE' },
        items,
      }),
      null,
    );
    expect(modern).toMatchObject({
      status: 'past_due',
      tier: 'ENTERPRISE',
      billingPeriod: 'yearly',
      currentPeriodEnd: new Date(1_774_592_000_000).toISOString(),
      customerId: 'cus_1',
    });
    const older = snapshotOf(
      StripeSubscriptionSchema.parse({
        id: 'sub_2',
        customer: { id: 'cus_2' },
        status: 'canceled',
        current_period_start: 1,
        current_period_end: 2,
        items: { data: [] },
      }),
      null,
    );
    expect(older).toMatchObject({
      status: 'ended',
      tier: 'PRO',
      billingPeriod: 'monthly',
      currentPeriodEnd: '1970-01-01T00:00:02.000Z',
      customerId: 'cus_2',
    });
    expect(snapshotOf(StripeSubscriptionSchema.parse({ id: 'sub_3', status: 'incomplete' }), null).status).toBe(
      'pending',
    );
  });
});
