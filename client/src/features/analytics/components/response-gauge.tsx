import { analyticsDisplay } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { gaugeBand } from '../analytics-rules';

const R = 80;
const CX = 100;
const CY = 100;

/** A point on the half circle: 0 at the left end, 1 at the right. */
const at = (share: number) => {
  const angle = Math.PI * (1 - share);
  return { x: CX + R * Math.cos(angle), y: CY - R * Math.sin(angle) };
};

const arc = (from: number, to: number) => {
  const a = at(from);
  const b = at(to);
  return `M ${a.x.toFixed(2)} ${a.y.toFixed(2)} A ${R} ${R} 0 0 1 ${b.x.toFixed(2)} ${b.y.toFixed(2)}`;
};

/** The average response time on a half-circle gauge up to 5,000 ms, coloured by the 200/500/1,000 ms bands. */
export function ResponseGauge({ ms }: { ms: number | null }) {
  const { t, i18n } = useTranslation('analytics');
  const { maxMs, bandsMs } = analyticsDisplay.responseGauge;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  if (ms === null) return <p className="muted">{t('gauge.none')}</p>;
  const band = gaugeBand(ms);
  const share = Math.min(ms, maxMs) / maxMs;
  const edges = [0, ...bandsMs, maxMs].map((edge) => edge / maxMs);
  const bandNames = ['excellent', 'good', 'fair', 'slow'] as const;
  return (
    <figure className="analytics-gauge">
      <svg
        viewBox="0 0 200 115"
        role="img"
        aria-label={t('gauge.label', {
          ms: number.format(ms),
          max: number.format(maxMs),
          band: t(`gauge.band_${band}`),
        })}
      >
        {bandNames.map((name, i) => (
          <path key={name} d={arc(edges[i]!, edges[i + 1]!)} className={`gauge-track band-${name}`} />
        ))}
        {share > 0 && <path d={arc(0, Math.max(share, 0.005))} className={`gauge-value band-${band}`} />}
      </svg>
      <figcaption>
        <strong className={`band-text-${band}`}>{t('gauge.value', { ms: number.format(ms) })}</strong>
        <span className={`badge band-badge-${band}`}>{t(`gauge.band_${band}`)}</span>
      </figcaption>
    </figure>
  );
}
