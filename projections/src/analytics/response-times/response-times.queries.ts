import type { Queryable } from '@kesher/contracts/ports/projection';
import { decodeInto, emptyHistogram, quantile } from '../shared/latency-histogram.js';
import { num, rangeFilter, type DayRange, type OwnerScope } from '../shared/owner-scope.js';

/** Durations over some days: exact count, average and extremes; percentiles from the merged histograms. */
export interface LatencySummary {
  samples: number;
  avgMs: number | null;
  minMs: number | null;
  maxMs: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

export interface ResponseTimes {
  completed: LatencySummary;
  firstToken: LatencySummary;
  /** Per day that had completed runs. */
  daily: Map<string, LatencySummary>;
}

class Accumulator {
  samples = 0;
  total = 0;
  min: number | null = null;
  max: number | null = null;
  histogram = emptyHistogram();

  add(samples: unknown, total: unknown, min: unknown, max: unknown, histogram: string | null) {
    const n = num(samples);
    if (n === 0) return;
    this.samples += n;
    this.total += num(total);
    if (min != null) this.min = this.min === null ? num(min) : Math.min(this.min, num(min));
    if (max != null) this.max = this.max === null ? num(max) : Math.max(this.max, num(max));
    decodeInto(this.histogram, histogram);
  }

  summary(): LatencySummary {
    const bounds = { min: this.min, max: this.max };
    const round = (value: number | null) => (value === null ? null : Math.round(value));
    return {
      samples: this.samples,
      avgMs: this.samples ? Math.round(this.total / this.samples) : null,
      minMs: round(this.min),
      maxMs: round(this.max),
      p50Ms: round(quantile(this.histogram, 0.5, bounds)),
      p90Ms: round(quantile(this.histogram, 0.9, bounds)),
      p95Ms: round(quantile(this.histogram, 0.95, bounds)),
      p99Ms: round(quantile(this.histogram, 0.99, bounds)),
    };
  }
}

interface Row {
  day: string;
  samples: unknown;
  total_ms: unknown;
  min_ms: unknown;
  max_ms: unknown;
  hist: string;
  ft_samples: unknown;
  ft_total_ms: unknown;
  ft_min_ms: unknown;
  ft_max_ms: unknown;
  ft_hist: string;
}

export function responseTimeQueries(db: Queryable) {
  return {
    /** The range's response times (one assistant's, or the scope's), overall and per day. */
    async range(scope: OwnerScope, range: DayRange, assistantId?: string | null): Promise<ResponseTimes> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      const { rows } = await db.query<Row>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, samples, total_ms, min_ms, max_ms, hist, ft_samples, ft_total_ms, ft_min_ms, ft_max_ms, ft_hist
         FROM analytics_response_times WHERE ${where}`,
        params,
      );
      const completed = new Accumulator();
      const firstToken = new Accumulator();
      const days = new Map<string, Accumulator>();
      for (const row of rows) {
        completed.add(row.samples, row.total_ms, row.min_ms, row.max_ms, row.hist);
        firstToken.add(row.ft_samples, row.ft_total_ms, row.ft_min_ms, row.ft_max_ms, row.ft_hist);
        let day = days.get(row.day);
        if (!day) days.set(row.day, (day = new Accumulator()));
        day.add(row.samples, row.total_ms, row.min_ms, row.max_ms, row.hist);
      }
      return {
        completed: completed.summary(),
        firstToken: firstToken.summary(),
        daily: new Map([...days].map(([day, acc]) => [day, acc.summary()])),
      };
    },
  };
}

export type ResponseTimeQueries = ReturnType<typeof responseTimeQueries>;
