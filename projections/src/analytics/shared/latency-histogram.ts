/**
 * A compact, mergeable latency histogram: one count per bucket, buckets 10 % wider than the one before
 * from 10 ms (bucket 0 holds everything below), the last one open-ended (~30 minutes and beyond). A day's
 * response times fit in 128 integers whatever their number, days add element by element, and a
 * percentile read back is within 5 % of the exact one (half a bucket's width), which is what lets any
 * range's percentiles come from per-day rows.
 */
export const HISTOGRAM_BUCKETS = 128;
const BASE_MS = 10;
const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);

export function bucketOf(ms: number): number {
  if (!(ms >= BASE_MS)) return 0;
  return Math.min(HISTOGRAM_BUCKETS - 1, 1 + Math.floor(Math.log(ms / BASE_MS) / LOG_GROWTH));
}

/** The bucket's lower and upper bounds in ms. */
export function bucketBounds(bucket: number): [number, number] {
  if (bucket <= 0) return [0, BASE_MS];
  return [BASE_MS * GROWTH ** (bucket - 1), BASE_MS * GROWTH ** bucket];
}

export const emptyHistogram = (): number[] => new Array<number>(HISTOGRAM_BUCKETS).fill(0);

/** Adds `other` into `into` (arrays of any length up to HISTOGRAM_BUCKETS; missing entries count 0). */
export function mergeInto(into: number[], other: readonly number[] | null | undefined): number[] {
  if (!other) return into;
  for (let i = 0; i < Math.min(other.length, into.length); i++) into[i]! += Number(other[i] ?? 0);
  return into;
}

/**
 * The `q` quantile (0..1) of what the histogram counted, as the middle of its bucket (geometric, since
 * buckets grow geometrically), kept within the exact `min`/`max` when those are known.
 */
export function quantile(
  histogram: readonly number[],
  q: number,
  bounds?: { min: number | null; max: number | null },
): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let bucket = 0; bucket < histogram.length; bucket++) {
    seen += histogram[bucket]!;
    if (seen < rank) continue;
    const [low, high] = bucketBounds(bucket);
    let value = bucket === 0 ? high / 2 : Math.sqrt(low * high);
    if (bounds?.min != null) value = Math.max(value, bounds.min);
    if (bounds?.max != null) value = Math.min(value, bounds.max);
    return value;
  }
  return bounds?.max ?? null;
}

/**
 * A histogram as stored: its non-empty buckets as `bucket:count` pairs (`"12:3,13:10"`). A day's response
 * times fill a few dozen of the 128 buckets; read back over a 90-day range, the sparse text is several
 * times cheaper to fetch and parse than whole integer arrays.
 */
export function encodeHistogram(histogram: readonly number[]): string {
  const pairs: string[] = [];
  for (let bucket = 0; bucket < histogram.length; bucket++)
    if (histogram[bucket]) pairs.push(`${bucket}:${histogram[bucket]}`);
  return pairs.join(',');
}

/** Adds a stored histogram (see encodeHistogram) into `into`; malformed pairs are skipped. */
export function decodeInto(into: number[], stored: string | null | undefined): number[] {
  if (!stored) return into;
  for (const pair of stored.split(',')) {
    const colon = pair.indexOf(':');
    const bucket = Number(pair.slice(0, colon));
    const count = Number(pair.slice(colon + 1));
    if (Number.isInteger(bucket) && bucket >= 0 && bucket < into.length && Number.isFinite(count))
      into[bucket]! += count;
  }
  return into;
}
