import { analyticsDisplay } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { useKeywordDashboard } from '../api/get-keyword-dashboard';
import { SectionError, SectionLoading, useFailureText } from './section-state';

type Keyword = { keyword: string; count: number };

function KeywordList({ id, title, keywords }: { id: string; title: string; keywords: readonly Keyword[] }) {
  const { t } = useTranslation('analytics');
  return (
    <div className="keyword-list">
      <h3 id={id}>{title}</h3>
      {keywords.length === 0 ? (
        <p className="muted">{t('keywords.none')}</p>
      ) : (
        <ol aria-labelledby={id}>
          {keywords.slice(0, analyticsDisplay.topKeywords).map((k) => (
            <li key={k.keyword}>
              <bdi className="keyword">{k.keyword}</bdi>
              <span className="muted">{t('keywords.count', { count: k.count })}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The top 5 customer keywords and the top 5 assistant keywords of the range. */
export function KeywordsCard({ days }: { days: number }) {
  const { t } = useTranslation('analytics');
  const keywords = useKeywordDashboard(days);
  const failure = useFailureText();
  let body;
  if (keywords.isPending) body = <SectionLoading />;
  else if (keywords.isError)
    body = <SectionError message={failure(keywords.error, 'keywordsFailed')} onRetry={() => void keywords.refetch()} />;
  else
    body = (
      <div className="keyword-lists">
        <KeywordList
          id="analytics-customer-keywords"
          title={t('keywords.customer')}
          keywords={keywords.data.customer_keywords.keywords}
        />
        <KeywordList
          id="analytics-assistant-keywords"
          title={t('keywords.assistant')}
          keywords={keywords.data.assistant_keywords.keywords}
        />
      </div>
    );
  return (
    <section className="card analytics-card" aria-labelledby="analytics-keywords">
      <h2 id="analytics-keywords">{t('keywords.title')}</h2>
      {body}
    </section>
  );
}
