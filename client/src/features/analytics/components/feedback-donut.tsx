import type { FeedbackStats } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { satisfactionBand } from '../analytics-rules';

const R = 40;
const CIRCUMFERENCE = 2 * Math.PI * R;

/** Likes against dislikes as a donut, with the satisfaction rate and its band (good ≥ 70 %, fair ≥ 50 %). */
export function FeedbackDonut({ feedback }: { feedback: FeedbackStats }) {
  const { t, i18n } = useTranslation('analytics');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  if (feedback.total === 0 || feedback.satisfaction_rate === null) return <p className="muted">{t('feedback.none')}</p>;
  const band = satisfactionBand(feedback.satisfaction_rate);
  const positiveLength = (feedback.positive / feedback.total) * CIRCUMFERENCE;
  return (
    <figure className="analytics-donut">
      <svg
        viewBox="0 0 100 100"
        role="img"
        aria-label={t('feedback.label', { positive: feedback.positive, negative: feedback.negative })}
      >
        <circle cx="50" cy="50" r={R} className="donut-negative" />
        <circle
          cx="50"
          cy="50"
          r={R}
          className="donut-positive"
          strokeDasharray={`${positiveLength} ${CIRCUMFERENCE}`}
          transform="rotate(-90 50 50)"
        />
        <text x="50" y="55" textAnchor="middle" className="donut-center">
          {`${number.format(feedback.satisfaction_rate)}%`}
        </text>
      </svg>
      <figcaption>
        <span className={`badge band-badge-${band === 'good' ? 'excellent' : band === 'fair' ? 'fair' : 'slow'}`}>
          {t(`feedback.band_${band}`)}
        </span>
        <span>{t('feedback.satisfaction', { rate: number.format(feedback.satisfaction_rate) })}</span>
        <ul className="donut-legend">
          <li>
            <span className="swatch swatch-positive" aria-hidden="true" />
            {t('feedback.positive')}: {number.format(feedback.positive)}
          </li>
          <li>
            <span className="swatch swatch-negative" aria-hidden="true" />
            {t('feedback.negative')}: {number.format(feedback.negative)}
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
