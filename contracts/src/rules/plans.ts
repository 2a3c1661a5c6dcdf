import { z } from 'zod';

/** The plan tiers (spec part 2 §3 Plan). The pricing page calls PRO "Standard" and ENTERPRISE "Premium". */
export const PlanTierSchema = z.enum(['FREE', 'PRO', 'ENTERPRISE']);
export type PlanTier = z.infer<typeof PlanTierSchema>;

export const PlanLimitsSchema = z.object({
  max_assistants: z.number().int().nonnegative(),
  max_messages_per_month: z.number().int().nonnegative(),
  /** Knowledge documents per assistant, as the pricing page counts them ("documents per agent"). */
  max_files: z.number().int().nonnegative(),
  max_crawl_pages: z.number().int().nonnegative(),
  max_storage_mb: z.number().int().nonnegative(),
});
export type PlanLimits = z.infer<typeof PlanLimitsSchema>;

export const PlanFeaturesSchema = z.object({
  api_access: z.boolean(),
  custom_branding: z.boolean(),
  advanced_analytics: z.boolean(),
  priority_support: z.boolean(),
  white_label: z.boolean(),
});

/** ISO 4217 codes the product charges in; ILS is the default (spec part 2 §9). */
export const CurrencySchema = z.enum(['ILS', 'USD']);
export type Currency = z.infer<typeof CurrencySchema>;
export const DEFAULT_CURRENCY: Currency = 'ILS';

export const PlanSchema = z.object({
  tier: PlanTierSchema,
  name: z.string(),
  description: z.string(),
  /** Minor units (agorot for ILS), as every amount in the product. */
  price_monthly: z.number().int().nonnegative(),
  /** Minor units for a year paid at once: ten months, the pricing page's "Save 17%". */
  price_yearly: z.number().int().nonnegative(),
  currency: CurrencySchema,
  /** Free-trial days on the monthly price of a paid plan (0 on Free and on yearly billing). */
  trial_days: z.number().int().nonnegative(),
  limits: PlanLimitsSchema,
  features: PlanFeaturesSchema,
});
export type Plan = z.infer<typeof PlanSchema>;

/** A paid plan's trial on monthly billing (spec part 2 §9: "a 14-day trial on paid monthly plans"). */
export const PAID_MONTHLY_TRIAL_DAYS = 14;
/** Yearly billing saves 17% (spec part 2 §9): a year costs ten months, 1 - 10/12 ≈ 16.7%. */
export const YEARLY_SAVING_PERCENT = 17;
const MB_PER_GB = 1024;

/**
 * The plan catalogue the server enforces and the pricing page lists (spec part 2 §9 comparison table):
 * Free 1 assistant / 100 messages a month / 5 files per assistant / 50 crawled pages / 100 MB; Pro
 * 10 / 5,000 / 50 / 1,000 / 5 GB; Enterprise 100 / 50,000 / 500 / 10,000 / 50 GB. The spec states no
 * server prices; these are ours, in ILS (the default currency). The static marketing page keeps its own
 * advertised plans (part 2 §2 Pricing, "also a static marketing version"). Feature flags are the paid
 * tiers' alone; priority support and white label are Enterprise's.
 */
export const plans: Readonly<Record<PlanTier, Plan>> = {
  FREE: {
    tier: 'FREE',
    name: 'Free',
    description: 'Start free with one assistant.',
    price_monthly: 0,
    price_yearly: 0,
    currency: DEFAULT_CURRENCY,
    trial_days: 0,
    limits: { max_assistants: 1, max_messages_per_month: 100, max_files: 5, max_crawl_pages: 50, max_storage_mb: 100 },
    features: {
      api_access: false,
      custom_branding: false,
      advanced_analytics: false,
      priority_support: false,
      white_label: false,
    },
  },
  PRO: {
    tier: 'PRO',
    name: 'Pro',
    description: 'For a growing business: more assistants, messages and knowledge.',
    price_monthly: 19_900,
    price_yearly: 199_000,
    currency: DEFAULT_CURRENCY,
    trial_days: PAID_MONTHLY_TRIAL_DAYS,
    limits: {
      max_assistants: 10,
      max_messages_per_month: 5_000,
      max_files: 50,
      max_crawl_pages: 1_000,
      max_storage_mb: 5 * MB_PER_GB,
    },
    features: {
      api_access: true,
      custom_branding: true,
      advanced_analytics: true,
      priority_support: false,
      white_label: false,
    },
  },
  ENTERPRISE: {
    tier: 'ENTERPRISE',
    name: 'Enterprise',
    description: 'For larger teams: the most assistants, messages and knowledge, with priority support.',
    price_monthly: 79_900,
    price_yearly: 799_000,
    currency: DEFAULT_CURRENCY,
    trial_days: PAID_MONTHLY_TRIAL_DAYS,
    limits: {
      max_assistants: 100,
      max_messages_per_month: 50_000,
      max_files: 500,
      max_crawl_pages: 10_000,
      max_storage_mb: 50 * MB_PER_GB,
    },
    features: {
      api_access: true,
      custom_branding: true,
      advanced_analytics: true,
      priority_support: true,
      white_label: true,
    },
  },
};

/** The paid tiers, as checkout names them (lowercase on the wire: `pro`, `enterprise`). */
export const PaidTierSchema = z.enum(['PRO', 'ENTERPRISE']);
export type PaidTier = z.infer<typeof PaidTierSchema>;
export const BillingPeriodSchema = z.enum(['monthly', 'yearly']);
export type BillingPeriod = z.infer<typeof BillingPeriodSchema>;

/** What a plan costs for a billing period, in minor units. */
export const planPrice = (tier: PlanTier, period: BillingPeriod) =>
  period === 'monthly' ? plans[tier].price_monthly : plans[tier].price_yearly;

/** An account without a live subscription is on the free plan. */
export const DEFAULT_PLAN_TIER: PlanTier = 'FREE';

/** The calendar month a moment falls in, in UTC (usage resets on the 1st): `YYYY-MM`. */
export const usageMonth = (moment: Date) => moment.toISOString().slice(0, 7);

/** The first instant of the month after `moment` (UTC): when a monthly limit opens again. */
export const nextUsageMonthStart = (moment: Date) =>
  new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + 1, 1));
