import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { seriesStats } from '../analytics-rules';

const W = 320;
const H = 140;
const PAD = { top: 10, right: 10, bottom: 20, left: 10 };

export interface ChartPoint {
  date: string;
  value: number | null;
}

/**
 * A daily line chart in plain SVG (no charting library: two small charts do not need one). Each day is a
 * point that shows its value on hover or keyboard focus; min, max and avg are written under the chart.
 */
export function LineChart({
  title,
  points,
  unit = '',
}: {
  title: string;
  points: readonly ChartPoint[];
  unit?: string;
}) {
  const { t, i18n } = useTranslation('analytics');
  const [active, setActive] = useState<number | null>(null);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const average = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const stats = seriesStats(points.map((p) => p.value));
  const top = Math.max(1, stats?.max ?? 1);
  const step = points.length > 1 ? (W - PAD.left - PAD.right) / (points.length - 1) : 0;
  const xy = points.map((p, i) => ({
    x: points.length > 1 ? PAD.left + i * step : W / 2,
    y: p.value === null ? null : PAD.top + (1 - p.value / top) * (H - PAD.top - PAD.bottom),
  }));
  const line = xy
    .map((p, i) =>
      p.y === null ? null : `${i === 0 || xy[i - 1]!.y === null ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`,
    )
    .filter(Boolean)
    .join(' ');
  const label = (i: number) =>
    t('charts.point', {
      date: dateFormat.format(new Date(`${points[i]!.date}T00:00:00Z`)),
      value: points[i]!.value === null ? '—' : `${number.format(points[i]!.value!)}${unit}`,
    });
  return (
    <figure className="analytics-chart">
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      <div className="chart-frame">
        <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-label={title} onMouseLeave={() => setActive(null)}>
          <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} className="chart-axis" />
          {line && <path d={line} className="chart-line" />}
          {xy.map((p, i) =>
            p.y === null ? null : (
              <circle
                key={points[i]!.date}
                cx={p.x}
                cy={p.y}
                r={active === i ? 5 : 3}
                className="chart-point"
                tabIndex={0}
                role="img"
                aria-label={label(i)}
                onMouseEnter={() => setActive(i)}
                onFocus={() => setActive(i)}
                onBlur={() => setActive(null)}
              />
            ),
          )}
        </svg>
        {active !== null && xy[active]?.y != null && (
          <div className="chart-tooltip" role="tooltip" data-side={xy[active]!.x > W / 2 ? 'end' : 'start'}>
            {label(active)}
          </div>
        )}
      </div>
      {stats && (
        <dl className="chart-stats">
          <div>
            <dt>{t('charts.min')}</dt>
            <dd>{number.format(stats.min)}</dd>
          </div>
          <div>
            <dt>{t('charts.max')}</dt>
            <dd>{number.format(stats.max)}</dd>
          </div>
          <div>
            <dt>{t('charts.avg')}</dt>
            <dd>{average.format(stats.avg)}</dd>
          </div>
        </dl>
      )}
    </figure>
  );
}
