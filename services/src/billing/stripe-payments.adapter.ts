import Stripe from 'stripe';
import type { PaymentsPort } from './payments.port.js';
import { StripeSubscriptionSchema, type StripeSubscription } from './stripe-objects.js';

export interface StripeSettings {
  secretKey: string;
  /** Stripe's API address; a local stand-in in tests (`http://127.0.0.1:PORT`). Default https://api.stripe.com. */
  apiUrl?: string;
}

/** The official client, pointed at STRIPE_API_URL when set (the library takes host, port and protocol). */
export function createStripeClient(settings: StripeSettings): Stripe {
  const url = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/**
 * Stripe Checkout in subscription mode. The price is given inline (price_data) from Kesher's catalogue,
 * so nothing has to be set up in the Stripe dashboard; the owner and plan go into the subscription's
 * metadata, which every later webhook about it carries back — how a webhook finds its owner even when it
 * arrives before the checkout's own.
 */
export function createStripePayments(deps: {
  stripe: Stripe;
}): PaymentsPort & { retrieveSubscription(id: string): Promise<StripeSubscription> } {
  const { stripe } = deps;
  return {
    provider: 'stripe',
    async openCheckout(order) {
      const meta = { owner_id: order.ownerId, tier: order.tier, billing_period: order.billingPeriod };
      const customerId =
        order.customerId ??
        (await stripe.customers.create({ email: order.email, metadata: { owner_id: order.ownerId } })).id;
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: order.ownerId,
        metadata: meta,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency.toLowerCase(),
              unit_amount: order.amount,
              recurring: { interval: order.billingPeriod === 'yearly' ? 'year' : 'month' },
              product_data: { name: order.description },
            },
          },
        ],
        subscription_data: { metadata: meta, ...(order.trialDays > 0 ? { trial_period_days: order.trialDays } : {}) },
        success_url: order.successUrl,
        cancel_url: order.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a url');
      return { checkoutId: session.id, url: session.url, customerId, expiresAt: new Date(session.expires_at * 1000) };
    },
    async portalUrl(customerId, returnUrl) {
      return (await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })).url;
    },
    async cancel(subscriptionId, immediately) {
      if (immediately) await stripe.subscriptions.cancel(subscriptionId);
      else await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    },
    async retrieveSubscription(id) {
      return StripeSubscriptionSchema.parse(await stripe.subscriptions.retrieve(id));
    },
  };
}
