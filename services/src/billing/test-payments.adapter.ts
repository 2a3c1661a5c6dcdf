import { randomBytes } from 'node:crypto';
import type { PaymentsPort } from './payments.port.js';

/** How long a test checkout can be paid (Stripe's Checkout sessions last 24 h; the page is filled in minutes). */
const CHECKOUT_TTL_MS = 60 * 60 * 1000;

/**
 * The test payments (`make start` without a Stripe key): checkout sends the owner to the product's own
 * test payment page (`/payment/tranzila-test`) with the parameters the spec lists, and the page posts the
 * card to POST /subscriptions/tranzila-mock, which decides the payment (test-cards.ts) and records the
 * same subscription and payment events as Stripe's webhooks would. No money moves; nothing leaves the machine.
 */
export function createTestPayments(deps: { clock: () => Date }): PaymentsPort {
  return {
    provider: 'test',
    async openCheckout(order) {
      const checkoutId = `tc_${randomBytes(16).toString('hex')}`;
      const params = new URLSearchParams({
        session_id: checkoutId,
        user_id: order.ownerId,
        email: order.email,
        amount: String(order.amount),
        currency: order.currency,
        tier: order.tier.toLowerCase(),
        billing_period: order.billingPeriod,
        success_url: order.successUrl,
        cancel_url: order.cancelUrl,
        description: order.description,
      });
      return {
        checkoutId,
        url: `/payment/tranzila-test?${params}`,
        customerId: null,
        expiresAt: new Date(deps.clock().getTime() + CHECKOUT_TTL_MS),
      };
    },
    async portalUrl(_customerId, returnUrl) {
      // No hosted portal for test payments: the billing page itself is where the owner manages the plan.
      return returnUrl;
    },
    async cancel() {
      // Nothing to tell: the test subscription lives only in Kesher's log.
    },
  };
}
