import '../locales';
import './analytics.css';
import { analyticsRanges, type Dashboard } from '@kesher/contracts';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDashboard } from '../api/get-dashboard';
import { CuratedAnswersCard } from './curated-answers-card';
import { FeedbackDonut } from './feedback-donut';
import { KeywordsCard } from './keywords-card';
import { LineChart } from './line-chart';
import { ReferredUrlsCard } from './referred-urls-card';
import { ResponseGauge } from './response-gauge';
import { SectionError, SectionLoading, useDashboardFailureText } from './section-state';
import { UsageLimitsCard } from './usage-limits-card';

type Range = (typeof analyticsRanges)[number];
const DEFAULT_RANGE: Range = 7;

const isEmpty = (d: Dashboard) =>
  d.overview.total_queries === 0 &&
  d.overview.total_conversations === 0 &&
  d.feedback.total === 0 &&
  d.response_time.samples === 0;

function Overview({ dashboard }: { dashboard: Dashboard }) {
  const { t, i18n } = useTranslation('analytics');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const figures = [
    ['users', number.format(dashboard.overview.users)],
    ['queries', number.format(dashboard.overview.total_queries)],
    ['conversations', number.format(dashboard.overview.total_conversations)],
    [
      'successRate',
      dashboard.overview.success_rate === null ? '—' : `${number.format(dashboard.overview.success_rate)}%`,
    ],
  ] as const;
  return (
    <dl className="analytics-overview">
      {figures.map(([key, value]) => (
        <div key={key} className="card" data-figure={key}>
          <dt>{t(`overview.${key}`)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The dashboard call's sections: overview, gauge, donut and the two daily charts. */
function DashboardSections({ days }: { days: number }) {
  const { t } = useTranslation('analytics');
  const dashboard = useDashboard(days);
  const failure = useDashboardFailureText();
  if (dashboard.isPending) return <SectionLoading />;
  if (dashboard.isError)
    return <SectionError message={failure(dashboard.error)} onRetry={() => void dashboard.refetch()} />;
  const data = dashboard.data;
  return (
    <>
      <Overview dashboard={data} />
      {isEmpty(data) ? (
        <p className="card muted">{t('noAnalytics')}</p>
      ) : (
        <>
          <div className="analytics-grid">
            <section className="card analytics-card" aria-labelledby="analytics-gauge">
              <h2 id="analytics-gauge">{t('gauge.title')}</h2>
              <ResponseGauge ms={data.response_time.current_ms} />
            </section>
            <section className="card analytics-card" aria-labelledby="analytics-feedback">
              <h2 id="analytics-feedback">{t('feedback.title')}</h2>
              <FeedbackDonut feedback={data.feedback} />
            </section>
          </div>
          <div className="analytics-grid">
            <section className="card analytics-card">
              <LineChart
                title={t('charts.queries')}
                points={data.trends.daily_queries.map((d) => ({ date: d.date, value: d.queries }))}
              />
            </section>
            <section className="card analytics-card">
              <LineChart
                title={t('charts.responseTimes')}
                points={data.trends.daily_response_times.map((d) => ({ date: d.date, value: d.avg_response_time }))}
              />
            </section>
          </div>
        </>
      )}
    </>
  );
}

/**
 * /analytics (spec part 2 §2): a range of 24 hours, 7, 30 or 90 days (7 by default), Refresh, and every
 * call refreshed every 5 minutes (each query's refetchInterval). Each section loads and fails on its own.
 * `unansweredList`: the questions answered with no source for the range, drawn by the Q&A feature.
 */
export function AnalyticsPage({ unansweredList }: { unansweredList?: (days: number) => ReactNode } = {}) {
  const { t } = useTranslation('analytics');
  const [days, setDays] = useState<Range>(DEFAULT_RANGE);
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: ['analytics'] }) > 0;
  return (
    <section className="page analytics-page">
      <header className="analytics-head">
        <div>
          <h1>{t('title')}</h1>
          <p className="muted">{t('subtitle')}</p>
        </div>
        <div className="analytics-controls">
          <label>
            <span>{t('range')}</span>
            <select value={days} onChange={(e) => setDays(Number(e.target.value) as Range)}>
              {analyticsRanges.map((range) => (
                <option key={range} value={range}>
                  {t(`range_${range}`)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-primary"
            disabled={fetching}
            onClick={() => void queryClient.refetchQueries({ queryKey: ['analytics'], type: 'active' })}
          >
            {fetching ? t('refreshing') : t('refresh')}
          </button>
          <span className="muted small">{t('autoRefresh')}</span>
        </div>
      </header>
      <UsageLimitsCard />
      <DashboardSections days={days} />
      <KeywordsCard days={days} />
      <ReferredUrlsCard days={days} />
      <CuratedAnswersCard days={days} unansweredList={unansweredList?.(days)} />
    </section>
  );
}
