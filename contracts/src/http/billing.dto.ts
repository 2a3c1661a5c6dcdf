import { z } from 'zod';
import { BillingPeriodSchema, CurrencySchema, PlanLimitsSchema, PlanSchema, PlanTierSchema } from '../rules/plans.js';
import { billingMessages } from './errors.catalogue.js';
import { UsageResponseSchema } from './limits.dto.js';

/**
 * The subscription calls (spec part 2 §7 Subscriptions, all eight). Every amount is an integer in minor
 * units (agorot for ILS); the client divides by 100 to show it.
 */

/** GET /subscriptions/plans → the catalogue, Free first. */
export const PlanListSchema = z.array(PlanSchema);
export type PlanList = z.infer<typeof PlanListSchema>;

/**
 * Where a subscription stands. `active` is also the state of the free plan (no periods). `trialing` is
 * a paid monthly plan in its trial; `past_due` a renewal whose payment failed (the plan's limits hold
 * until the period ends); `canceled` ended (the owner is back on FREE).
 */
export const SubscriptionStatusValueSchema = z.enum(['active', 'trialing', 'past_due', 'canceled']);
export type SubscriptionStatusValue = z.infer<typeof SubscriptionStatusValueSchema>;

/** GET /subscriptions/status (spec §3 Subscription status). */
export const SubscriptionStatusSchema = z.object({
  tier: PlanTierSchema,
  status: SubscriptionStatusValueSchema,
  cancel_at_period_end: z.boolean(),
  current_period_start: z.string().nullable().describe('ISO 8601; null on the free plan'),
  current_period_end: z.string().nullable().describe('ISO 8601; null on the free plan'),
  trial_end: z.string().nullable().describe('ISO 8601; null when there is no trial'),
  limits: PlanLimitsSchema,
  billing_period: BillingPeriodSchema.nullable(),
  /** Which payments service holds the subscription: `stripe`, `test` (the test payment page), or null on Free. */
  provider: z.enum(['stripe', 'test']).nullable(),
});
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

/** POST /subscriptions/checkout. The tier is lowercase on the wire, as the pricing page sends it. */
export const CheckoutRequestSchema = z.object({
  tier: z.enum(['pro', 'enterprise']),
  billing_period: BillingPeriodSchema,
  /** Where to land after paying (same-origin path or absolute URL of this site); default /billing. */
  success_url: z.string().max(2048).optional(),
  /** Where Cancel goes; default /pricing. */
  cancel_url: z.string().max(2048).optional(),
});
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;

/** The checkout address to redirect to: Stripe Checkout, or `/payment/tranzila-test?…` with the test payments. */
export const CheckoutResponseSchema = z.object({ url: z.string(), session_id: z.string() });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/** POST /subscriptions/billing-portal. */
export const BillingPortalRequestSchema = z.object({ return_url: z.string().max(2048).optional() });
export const BillingPortalResponseSchema = z.object({ url: z.string() });
export type BillingPortalResponse = z.infer<typeof BillingPortalResponseSchema>;

/**
 * The billing portal's refusals, sent as `{ detail: <code> }` (spec §6 and §8): a free owner has nothing
 * to manage (403); a paid owner whose subscription has no payments-service customer yet (400).
 */
export const billingErrors = { freePlanUser: 'FREE_PLAN_USER', noStripeCustomer: 'NO_STRIPE_CUSTOMER' } as const;

/** POST /subscriptions/cancel: `immediately` false (the default) cancels at the period's end; access continues until then. */
export const CancelRequestSchema = z.object({ immediately: z.boolean().default(false) });
export type CancelRequest = z.infer<typeof CancelRequestSchema>;

/** GET /subscriptions/payment-history?limit= (default 5, newest first). */
export const PaymentHistoryQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(5) });
export const PaymentStatusSchema = z.enum(['succeeded', 'failed']);
export const PaymentSchema = z.object({
  id: z.string(),
  created_at: z.string().describe('ISO 8601'),
  description: z.string(),
  /** Minor units. */
  amount: z.number().int().nonnegative(),
  currency: CurrencySchema,
  status: PaymentStatusSchema,
  /** The receipt or invoice PDF (only the owner's link opens it); null when there is none. */
  invoice_pdf: z.string().nullable(),
});
export type Payment = z.infer<typeof PaymentSchema>;
export const PaymentHistorySchema = z.array(PaymentSchema);
export type PaymentHistory = z.infer<typeof PaymentHistorySchema>;

/** GET /subscriptions/usage: the same figures as GET /limits/usage (spec §3 Usage). */
export const SubscriptionUsageSchema = UsageResponseSchema;

/**
 * The parameters checkout puts in the test payment page's address (spec §2 Payment test page): the
 * page shows them and posts them back with the card. `session_id` binds the payment to its checkout;
 * the server takes the amount from the checkout, never from the page.
 */
export const TestCheckoutParamsSchema = z.object({
  session_id: z.string(),
  user_id: z.string(),
  email: z.string(),
  amount: z.coerce.number().int().nonnegative(),
  currency: CurrencySchema.default('ILS'),
  tier: z.enum(['pro', 'enterprise']),
  billing_period: BillingPeriodSchema,
  success_url: z.string(),
  cancel_url: z.string(),
  description: z.string(),
});
export type TestCheckoutParams = z.infer<typeof TestCheckoutParamsSchema>;

/** The two test cards the page hints (spec §2): the first succeeds, the second is declined. */
export const TEST_CARDS = { success: '4580458045804580', declined: '4000000000000002' } as const;

/**
 * POST /subscriptions/tranzila-mock, form-encoded: the page's parameters plus the card. A missing or
 * malformed field is a 422 whose detail names it (`loc: ['body', '<field>']`).
 */
export const TranzilaMockFormSchema = TestCheckoutParamsSchema.extend({
  card_number: z.string().regex(/^\d{13,16}$/, billingMessages.cardNumber),
  card_holder: z.string().trim().min(1, billingMessages.cardHolder).max(100),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/, billingMessages.expiry),
  cvv: z.string().regex(/^\d{3,4}$/, billingMessages.cvv),
});
export type TranzilaMockForm = z.infer<typeof TranzilaMockFormSchema>;

/**
 * The answer the page reads (spec §7: status, redirect_url, message). A declined card is `failed` with the
 * reason, answered 200 like a success: the payment was processed, the bank said no.
 */
export const TranzilaMockResponseSchema = z.object({
  status: z.enum(['success', 'failed']),
  redirect_url: z.string().nullable(),
  message: z.string(),
  payment_id: z.string().nullable(),
});
export type TranzilaMockResponse = z.infer<typeof TranzilaMockResponseSchema>;
