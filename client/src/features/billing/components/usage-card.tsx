import { limitState, type PlanLimits } from '@kesher/contracts';
import { useSubscriptionUsage } from '../api/get-subscription-usage';
import { formatDate, formatNumber, formatStorage } from '../billing-rules';
import { useBillingTexts } from '../hooks/use-language';

interface UsageRow {
  key: 'assistants' | 'messages' | 'storage';
  used: number;
  limit: number;
}

const rowsOf = (
  usage: { assistants: number; messages: number; storage_mb: number },
  limits: PlanLimits,
): UsageRow[] => [
  { key: 'assistants', used: usage.assistants, limit: limits.max_assistants },
  { key: 'messages', used: usage.messages, limit: limits.max_messages_per_month },
  { key: 'storage', used: usage.storage_mb, limit: limits.max_storage_mb },
];

/** Current Usage: a bar per limit, coloured from 50, 75 and 90 % (spec part 2 §9), with its figure in words. */
export function UsageCard() {
  const { t, language } = useBillingTexts();
  const usage = useSubscriptionUsage();
  const figure = (row: UsageRow, value: number) =>
    row.key === 'storage'
      ? formatStorage(value, language, { mb: t('units.mb'), gb: t('units.gb') })
      : formatNumber(value, language);
  let body;
  if (usage.isPending) body = <p className="muted">{t('loading')}</p>;
  else if (usage.isError) {
    body = (
      <div role="alert" className="banner banner-error">
        <p>{t('billing.loadFailed')}</p>
        <button type="button" className="btn btn-secondary" onClick={() => void usage.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  } else {
    body = (
      <>
        <ul className="usage-bars">
          {rowsOf(usage.data.usage, usage.data.limits).map((row) => {
            const percent = row.limit > 0 ? Math.min(100, (row.used / row.limit) * 100) : 100;
            const label = t(`billing.usage.${row.key}`);
            return (
              <li key={row.key} className={`usage-bar state-${limitState(row.used, row.limit)}`} data-usage={row.key}>
                <div className="usage-bar-head">
                  <span>{label}</span>
                  <span>
                    {t('billing.usage.figure', { used: figure(row, row.used), limit: figure(row, row.limit) })}
                  </span>
                </div>
                <div
                  className="usage-track"
                  role="progressbar"
                  aria-label={label}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(percent)}
                  aria-valuetext={t('billing.usage.percent', { percent: Math.round(percent) })}
                >
                  <span style={{ inlineSize: `${percent}%` }} />
                </div>
                <span className="small muted">{t('billing.usage.percent', { percent: Math.round(percent) })}</span>
              </li>
            );
          })}
        </ul>
        <p className="small muted">
          {t('billing.usage.resets', { date: formatDate(usage.data.period_end, language) })}
        </p>
      </>
    );
  }
  return (
    <section className="card" aria-labelledby="billing-usage">
      <h2 id="billing-usage">{t('billing.currentUsage')}</h2>
      {body}
    </section>
  );
}
