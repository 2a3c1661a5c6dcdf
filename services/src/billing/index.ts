/**
 * The public entry of billing: payments (Stripe or the test payments), subscriptions, receipts and the live
 * plan book. Other modules, the facade and the composition roots import only this file (DESIGN.md §3,
 * eslint.config.js).
 */
export { BillingError } from './billing-service.js';
export type { BillingService, createBillingService } from './billing-service.js';
export { billingVersion, composeBilling, livePlanBook, subscriptionLookup } from './compose-billing.js';
export { WebhookSignatureError } from './stripe-webhooks.js';
export type { StripeWebhooks } from './stripe-webhooks.js';
export { cardExpired, cardMessages, unknownTestCard } from './test-cards.js';
