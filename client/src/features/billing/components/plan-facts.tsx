import type { Plan, PlanLimits } from '@kesher/contracts';
import { formatNumber, formatStorage } from '../billing-rules';
import { useBillingTexts } from '../hooks/use-language';

export const LIMIT_KEYS = [
  'max_assistants',
  'max_messages_per_month',
  'max_files',
  'max_crawl_pages',
  'max_storage_mb',
] as const satisfies readonly (keyof PlanLimits)[];

/** What only the paid tiers have (spec part 2 §6): messaging channels, scheduled sync, Google Drive. */
export const PAID_TIER_FEATURES = ['channels', 'scheduledSync', 'googleDrive'] as const;
export const FLAG_KEYS = [
  'api_access',
  'custom_branding',
  'advanced_analytics',
  'priority_support',
  'white_label',
] as const;

export type FeatureKey = (typeof PAID_TIER_FEATURES)[number] | (typeof FLAG_KEYS)[number];

export function hasFeature(plan: Plan, key: FeatureKey): boolean {
  return (PAID_TIER_FEATURES as readonly string[]).includes(key)
    ? plan.tier !== 'FREE'
    : plan.features[key as (typeof FLAG_KEYS)[number]];
}

/** A limit as people read it: 5,000 messages, 5 GB of storage. */
export function useLimitText() {
  const { t, language } = useBillingTexts();
  return (key: keyof PlanLimits, value: number) =>
    key === 'max_storage_mb'
      ? formatStorage(value, language, { mb: t('units.mb'), gb: t('units.gb') })
      : formatNumber(value, language);
}

/** A plan's limits as label / figure pairs. */
export function PlanLimitList({ limits, className }: { limits: PlanLimits; className?: string }) {
  const { t } = useBillingTexts();
  const limitText = useLimitText();
  return (
    <dl className={`plan-facts ${className ?? ''}`.trim()}>
      {LIMIT_KEYS.map((key) => (
        <div key={key}>
          <dt>{t(`limits.${key}`)}</dt>
          <dd>{limitText(key, limits[key])}</dd>
        </div>
      ))}
    </dl>
  );
}
