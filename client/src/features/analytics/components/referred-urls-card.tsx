import { analyticsDisplay } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { useSalesAnalytics } from '../api/get-sales-analytics';
import { truncateUrl } from '../analytics-rules';
import { SectionError, SectionLoading, useFailureText } from './section-state';

/** The top 10 referred URLs: type badge, count, share; the total and a Refresh Data button. */
export function ReferredUrlsCard({ days }: { days: number }) {
  const { t, i18n } = useTranslation('analytics');
  const sales = useSalesAnalytics(days);
  const failure = useFailureText();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  let body;
  if (sales.isPending) body = <SectionLoading />;
  else if (sales.isError)
    body = <SectionError message={failure(sales.error, 'salesFailed')} onRetry={() => void sales.refetch()} />;
  else if (sales.data.top_referred_urls.length === 0) body = <p className="muted">{t('referrals.none')}</p>;
  else
    body = (
      <div className="table-scroll">
        <table className="referrals-table">
          <thead>
            <tr>
              <th scope="col">{t('referrals.url')}</th>
              <th scope="col">{t('referrals.type')}</th>
              <th scope="col">{t('referrals.count')}</th>
              <th scope="col">{t('referrals.share')}</th>
            </tr>
          </thead>
          <tbody>
            {sales.data.top_referred_urls.slice(0, analyticsDisplay.topReferredUrls).map((row) => (
              <tr key={row.url}>
                <td>
                  <a href={row.url} target="_blank" rel="noopener noreferrer" title={row.url} dir="ltr">
                    {truncateUrl(row.url)}
                  </a>
                </td>
                <td>
                  <span className={`badge referral-${row.type}`}>{t(`referrals.type_${row.type}`)}</span>
                </td>
                <td>{number.format(row.count)}</td>
                <td>{`${number.format(row.percentage)}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  return (
    <section className="card analytics-card" aria-labelledby="analytics-referrals">
      <div className="card-head">
        <h2 id="analytics-referrals">{t('referrals.title')}</h2>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void sales.refetch()}
          disabled={sales.isFetching}
        >
          {t('referrals.refreshData')}
        </button>
      </div>
      {sales.isSuccess && (
        <p className="muted">
          {t('referrals.total', { total: number.format(sales.data.total_referrals) })} ·{' '}
          {t('referrals.days', { days: sales.data.days_analyzed })}
        </p>
      )}
      {body}
    </section>
  );
}
