import { useTranslation } from 'react-i18next';
import { useLimitsAnalytics } from '../api/get-limits-analytics';
import { usageRows } from '../analytics-rules';
import { SectionError, SectionLoading, useFailureText } from './section-state';

/** The month's usage against the owner's plan, each bar coloured at 50, 75 and 90 %. */
export function UsageLimitsCard() {
  const { t, i18n } = useTranslation('analytics');
  const limits = useLimitsAnalytics();
  const failure = useFailureText();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  let body;
  if (limits.isPending) body = <SectionLoading />;
  else if (limits.isError)
    body = <SectionError message={failure(limits.error, 'limitsFailed')} onRetry={() => void limits.refetch()} />;
  else if (!limits.data) body = <p className="muted">{t('noLimits')}</p>;
  else {
    const stats = limits.data.quick_stats;
    const summary = limits.data.limits_status.limits_summary;
    const plan = { monthlyMessages: summary.chat.total_messages.limit, storageMb: summary.storage.used_mb.limit };
    body = (
      <ul className="usage-rows">
        {usageRows(stats.messages_this_month, stats.storage_used_mb, plan).map((row) => (
          <li key={row.key} className={`usage-row state-${row.state}`}>
            <div className="usage-label">
              <span>{t(`usage.${row.key}`)}</span>
              <span>{t('usage.figure', { used: number.format(row.used), limit: number.format(row.limit) })}</span>
            </div>
            <progress value={row.percent} max={100} aria-label={t(`usage.${row.key}`)} />
            <span className="usage-state">{t(`usage.state_${row.state}`)}</span>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section className="card analytics-card" aria-labelledby="analytics-usage">
      <h2 id="analytics-usage">{t('usage.title')}</h2>
      <p className="muted">{t('usage.resets')}</p>
      {body}
    </section>
  );
}
