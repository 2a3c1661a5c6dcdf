import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { factsOf } from '../shared/facts.js';
import { bucketOf, decodeInto, emptyHistogram, encodeHistogram } from '../shared/latency-histogram.js';
import { threadDirectory } from '../shared/thread-directory.js';

const threads = threadDirectory('analytics_rt_threads');

/** One series of durations: how many, their sum, extremes and histogram. */
interface Series {
  samples: number;
  totalMs: number;
  minMs: number | null;
  maxMs: number | null;
  histogram: number[];
}

const emptySeries = (): Series => ({ samples: 0, totalMs: 0, minMs: null, maxMs: null, histogram: emptyHistogram() });

function record(series: Series, ms: number) {
  series.samples++;
  series.totalMs += ms;
  series.minMs = series.minMs === null ? ms : Math.min(series.minMs, ms);
  series.maxMs = series.maxMs === null ? ms : Math.max(series.maxMs, ms);
  series.histogram[bucketOf(ms)]!++;
}

function merge(into: Series, other: Series) {
  into.samples += other.samples;
  into.totalMs += other.totalMs;
  if (other.minMs !== null) into.minMs = into.minMs === null ? other.minMs : Math.min(into.minMs, other.minMs);
  if (other.maxMs !== null) into.maxMs = into.maxMs === null ? other.maxMs : Math.max(into.maxMs, other.maxMs);
  for (let i = 0; i < into.histogram.length; i++) into.histogram[i]! += other.histogram[i]!;
}

interface DayRow {
  ownerId: string;
  assistantId: string;
  day: string;
  completed: Series;
  firstToken: Series;
}

interface StoredRow {
  owner_id: string;
  assistant_id: string;
  day: string;
  samples: number;
  total_ms: number;
  min_ms: number | null;
  max_ms: number | null;
  hist: string;
  ft_samples: number;
  ft_total_ms: number;
  ft_min_ms: number | null;
  ft_max_ms: number | null;
  ft_hist: string;
}

const fromStored = (samples: number, total: number, min: number | null, max: number | null, hist: string): Series => ({
  samples: Number(samples),
  totalMs: Number(total),
  minMs: min === null ? null : Number(min),
  maxMs: max === null ? null : Number(max),
  histogram: decodeInto(emptyHistogram(), hist),
});

/**
 * The batch's completed runs are summed per owner, assistant and day in memory, merged with the stored
 * rows of those days (read in the same transaction: one projection writes these rows, one batch at a
 * time) and written back whole — histograms cannot be added with a plain `+` in SQL.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const recorded = await threads.record(db, events);
  const completed = factsOf(events, 'RunCompleted');
  if (completed.length === 0) return;
  const known = await threads.lookup(
    db,
    completed.map((c) => c.data.threadId),
    recorded,
  );
  const rows = new Map<string, DayRow>();
  for (const run of completed) {
    const thread = known.get(run.data.threadId);
    if (!thread) continue;
    const key = `${thread.ownerId}|${thread.assistantId}|${run.day}`;
    let row = rows.get(key);
    if (!row)
      rows.set(
        key,
        (row = {
          ownerId: thread.ownerId,
          assistantId: thread.assistantId,
          day: run.day,
          completed: emptySeries(),
          firstToken: emptySeries(),
        }),
      );
    record(row.completed, run.data.responseMs);
    if (run.data.firstTokenMs != null) record(row.firstToken, Math.min(run.data.firstTokenMs, run.data.responseMs));
  }
  if (rows.size === 0) return;
  const batch = [...rows.values()];
  const { rows: stored } = await db.query<StoredRow>(
    `SELECT r.owner_id, r.assistant_id, to_char(r.day, 'YYYY-MM-DD') AS day, samples, total_ms, min_ms, max_ms, hist, ft_samples, ft_total_ms, ft_min_ms, ft_max_ms, ft_hist
     FROM analytics_response_times r JOIN unnest($1::text[], $2::text[], $3::date[]) AS k(owner_id, assistant_id, day)
       ON r.owner_id = k.owner_id AND r.assistant_id = k.assistant_id AND r.day = k.day`,
    [batch.map((r) => r.ownerId), batch.map((r) => r.assistantId), batch.map((r) => r.day)],
  );
  for (const old of stored) {
    const row = rows.get(`${old.owner_id}|${old.assistant_id}|${old.day}`);
    if (!row) continue;
    merge(row.completed, fromStored(old.samples, old.total_ms, old.min_ms, old.max_ms, old.hist));
    merge(row.firstToken, fromStored(old.ft_samples, old.ft_total_ms, old.ft_min_ms, old.ft_max_ms, old.ft_hist));
  }
  await db.query(
    `INSERT INTO analytics_response_times (owner_id, assistant_id, day, samples, total_ms, min_ms, max_ms, hist, ft_samples, ft_total_ms, ft_min_ms, ft_max_ms, ft_hist)
     SELECT k.owner_id, k.assistant_id, k.day, k.samples, k.total_ms, k.min_ms, k.max_ms,
       k.hist, k.ft_samples, k.ft_total_ms, k.ft_min_ms, k.ft_max_ms, k.ft_hist
     FROM unnest($1::text[], $2::text[], $3::date[], $4::int[], $5::float8[], $6::float8[], $7::float8[], $8::text[], $9::int[], $10::float8[], $11::float8[], $12::float8[], $13::text[])
       AS k(owner_id, assistant_id, day, samples, total_ms, min_ms, max_ms, hist, ft_samples, ft_total_ms, ft_min_ms, ft_max_ms, ft_hist)
     ON CONFLICT (owner_id, day, assistant_id) DO UPDATE SET samples = excluded.samples, total_ms = excluded.total_ms, min_ms = excluded.min_ms,
       max_ms = excluded.max_ms, hist = excluded.hist, ft_samples = excluded.ft_samples, ft_total_ms = excluded.ft_total_ms, ft_min_ms = excluded.ft_min_ms,
       ft_max_ms = excluded.ft_max_ms, ft_hist = excluded.ft_hist`,
    [
      batch.map((r) => r.ownerId),
      batch.map((r) => r.assistantId),
      batch.map((r) => r.day),
      batch.map((r) => r.completed.samples),
      batch.map((r) => r.completed.totalMs),
      batch.map((r) => r.completed.minMs),
      batch.map((r) => r.completed.maxMs),
      batch.map((r) => encodeHistogram(r.completed.histogram)),
      batch.map((r) => r.firstToken.samples),
      batch.map((r) => r.firstToken.totalMs),
      batch.map((r) => r.firstToken.minMs),
      batch.map((r) => r.firstToken.maxMs),
      batch.map((r) => encodeHistogram(r.firstToken.histogram)),
    ],
  );
}

/**
 * Response times of completed runs per owner, assistant and day: from the run's request to its
 * completion and to the first words of the answer — count, sum, min, max and a latency histogram each,
 * so averages and percentiles of any range come from its days' rows.
 */
export const responseTimesProjection: Projection = {
  name: 'analytics-response-times',
  // 2: histograms stored sparse as text (encodeHistogram), several times cheaper to read over a range.
  version: 2,
  eventTypes: ['ThreadStarted', 'RunCompleted'],
  tables: [threads.table, 'analytics_response_times'],
  migrations: [
    {
      id: '001-tables',
      sql: `
${threads.migration}
CREATE TABLE IF NOT EXISTS analytics_response_times (
  owner_id text NOT NULL,
  day date NOT NULL,
  assistant_id text NOT NULL,
  samples int NOT NULL,
  total_ms float8 NOT NULL,
  min_ms float8,
  max_ms float8,
  hist int[] NOT NULL,
  ft_samples int NOT NULL,
  ft_total_ms float8 NOT NULL,
  ft_min_ms float8,
  ft_max_ms float8,
  ft_hist int[] NOT NULL,
  PRIMARY KEY (owner_id, day, assistant_id)
);
`,
    },
    {
      id: '002-sparse-histograms',
      // Applied with version 2, which rebuilds the read model from the first event: no row is kept to convert.
      sql: `
ALTER TABLE analytics_response_times ALTER COLUMN hist TYPE text USING '';
ALTER TABLE analytics_response_times ALTER COLUMN ft_hist TYPE text USING '';
`,
    },
  ],
  apply: applyBatch,
};
