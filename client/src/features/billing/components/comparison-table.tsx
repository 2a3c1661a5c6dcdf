import type { Plan } from '@kesher/contracts';
import { useBillingTexts } from '../hooks/use-language';
import { FLAG_KEYS, hasFeature, LIMIT_KEYS, PAID_TIER_FEATURES, useLimitText } from './plan-facts';

/** The comparison table (spec part 2 §9): each plan's limits and what it includes, from the server's plans. */
export function ComparisonTable({ plans }: { plans: Plan[] }) {
  const { t } = useBillingTexts();
  const limitText = useLimitText();
  return (
    <section className="compare" aria-labelledby="compare-title">
      <h2 id="compare-title">{t('pricing.compareTitle')}</h2>
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="compare-title">
        <table className="compare-table">
          <thead>
            <tr>
              <th scope="col">{t('pricing.feature')}</th>
              {plans.map((plan) => (
                <th scope="col" key={plan.tier}>
                  {t(`tiers.${plan.tier}.name`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {LIMIT_KEYS.map((key) => (
              <tr key={key}>
                <th scope="row">{t(`limits.${key}`)}</th>
                {plans.map((plan) => (
                  <td key={plan.tier}>{limitText(key, plan.limits[key])}</td>
                ))}
              </tr>
            ))}
            {[...PAID_TIER_FEATURES, ...FLAG_KEYS].map((key) => (
              <tr key={key}>
                <th scope="row">{t(`features.${key}`)}</th>
                {plans.map((plan) => {
                  const included = hasFeature(plan, key);
                  return (
                    <td key={plan.tier}>
                      <span aria-hidden="true">{included ? '✓' : '—'}</span>
                      <span className="visually-hidden">{t(included ? 'yes' : 'no')}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
