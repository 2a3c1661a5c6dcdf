import '../locales';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCuratedAnswers } from '../api/get-curated-answers';
import { SectionError, SectionLoading, useFailureText } from './section-state';

/**
 * Curated answers on the dashboard (issue 26 item 4): how many answers in the range came from the owner's
 * Q&A and their share, the Q&A that answered most, and the questions answered with no source, each one
 * click from becoming a Q&A. That list is the Q&A feature's, given by the app shell (`unansweredList`):
 * a feature never imports another.
 */
export function CuratedAnswersCard({ days, unansweredList }: { days: number; unansweredList?: ReactNode }) {
  const { t, i18n } = useTranslation('analytics');
  const curated = useCuratedAnswers(days);
  const failure = useFailureText();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  let body;
  if (curated.isPending) body = <SectionLoading />;
  else if (curated.isError)
    body = <SectionError message={failure(curated.error, 'curated.failed')} onRetry={() => void curated.refetch()} />;
  else {
    const data = curated.data;
    const figures = [
      ['count', number.format(data.curated_answers)],
      ['share', data.curated_share === null ? '—' : `${number.format(data.curated_share)}%`],
      ['unsourced', number.format(data.unsourced_answers)],
    ] as const;
    body = (
      <>
        <dl className="analytics-overview curated-figures">
          {figures.map(([key, value]) => (
            <div key={key} data-figure={`curated-${key}`}>
              <dt>{t(`curated.${key}`)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <h3>{t('curated.top')}</h3>
        {data.top_questions.length === 0 ? (
          <p className="muted">{t('curated.topEmpty')}</p>
        ) : (
          <ol className="curated-top">
            {data.top_questions.map((q) => (
              <li key={q.qa_id}>
                <span dir="auto">{q.question}</span>{' '}
                <span className="muted small">
                  {t('curated.hits', { count: number.format(q.hits) })} · {q.assistant_name}
                </span>
              </li>
            ))}
          </ol>
        )}
      </>
    );
  }
  return (
    <section className="card analytics-card" aria-labelledby="analytics-curated">
      <h2 id="analytics-curated">{t('curated.title')}</h2>
      {body}
      {unansweredList}
    </section>
  );
}
