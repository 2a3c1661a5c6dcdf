import type { BillingPeriod, Currency, PaidTier, PaymentProvider } from '@kesher/contracts';

/** What a checkout asks the payments service for (amounts in minor units; addresses absolute). */
export interface CheckoutOrder {
  ownerId: string;
  email: string;
  tier: PaidTier;
  billingPeriod: BillingPeriod;
  amount: number;
  currency: Currency;
  /** Free days before the first charge (paid monthly plans: 14). */
  trialDays: number;
  description: string;
  successUrl: string;
  cancelUrl: string;
  /** The owner's customer at the payments service, when they already have one. */
  customerId: string | null;
}

export interface OpenedCheckout {
  checkoutId: string;
  /** Where the owner pays: Stripe Checkout, or the test payment page. */
  url: string;
  customerId: string | null;
  expiresAt: Date;
}

/**
 * A payments service (port). Stripe in production; the built-in test payments when no Stripe key is set.
 * What they report back — payments, renewals, failures — comes as events on the owner's subscription
 * stream (Stripe through its webhooks, the test payments through the test page's form).
 */
export interface PaymentsPort {
  readonly provider: PaymentProvider;
  openCheckout(order: CheckoutOrder): Promise<OpenedCheckout>;
  /** The service's page where the owner manages cards and invoices. */
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
  /** Cancels at the service: at the period's end, or at once. */
  cancel(subscriptionId: string, immediately: boolean): Promise<void>;
}
