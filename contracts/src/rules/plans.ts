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

export const PlanSchema = z.object({
  tier: PlanTierSchema,
  name: z.string(),
  description: z.string(),
  /** Minor units (cents), as every amount in the product; the pricing page shows US dollars. */
  price_monthly: z.number().int().nonnegative(),
  price_yearly: z.number().int().nonnegative(),
  limits: PlanLimitsSchema,
  features: PlanFeaturesSchema,
});
export type Plan = z.infer<typeof PlanSchema>;

/**
 * The plan catalogue. Assistants, monthly messages ("queries") and documents per assistant are the
 * pricing page's figures (Free / Standard / Premium), so what the product enforces is what it advertises.
 * The page does not state crawl pages or storage; those come from the spec's comparison table (part 2 §9),
 * whose Free storage (100 MB) is also the upload limit in force. Yearly prices are ten months (the
 * advertised "save 17%"). Feature flags follow the page where it says (advanced analytics is "Basic" on
 * Free) and are otherwise the paid tiers' alone.
 */
export const plans: Readonly<Record<PlanTier, Plan>> = {
  FREE: {
    tier: 'FREE',
    name: 'Free',
    description: 'Start free with one assistant.',
    price_monthly: 0,
    price_yearly: 0,
    limits: { max_assistants: 1, max_messages_per_month: 100, max_files: 1000, max_crawl_pages: 50, max_storage_mb: 100 },
    features: { api_access: false, custom_branding: false, advanced_analytics: false, priority_support: false, white_label: false },
  },
  PRO: {
    tier: 'PRO',
    name: 'Standard',
    description: 'For a growing business: more assistants, queries and documents.',
    price_monthly: 5_000,
    price_yearly: 50_000,
    limits: { max_assistants: 2, max_messages_per_month: 1000, max_files: 5000, max_crawl_pages: 1000, max_storage_mb: 5 * 1024 },
    features: { api_access: true, custom_branding: true, advanced_analytics: true, priority_support: false, white_label: false },
  },
  ENTERPRISE: {
    tier: 'ENTERPRISE',
    name: 'Premium',
    description: 'For larger teams: the most assistants, queries and documents.',
    price_monthly: 10_000,
    price_yearly: 100_000,
    limits: { max_assistants: 5, max_messages_per_month: 5000, max_files: 20_000, max_crawl_pages: 10_000, max_storage_mb: 50 * 1024 },
    features: { api_access: true, custom_branding: true, advanced_analytics: true, priority_support: true, white_label: true },
  },
};

/** Until billing exists every account is on the free plan. */
export const DEFAULT_PLAN_TIER: PlanTier = 'FREE';

/** The calendar month a moment falls in, in UTC (usage resets on the 1st): `YYYY-MM`. */
export const usageMonth = (moment: Date) => moment.toISOString().slice(0, 7);

/** The first instant of the month after `moment` (UTC): when a monthly limit opens again. */
export const nextUsageMonthStart = (moment: Date) => new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + 1, 1));
