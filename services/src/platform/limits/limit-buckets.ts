import type { SqlExecutor } from '../sql/sql.port.js';
import { expiryPurge } from './expiry.js';

/** One bucket drawn on: a burst of `capacity`, refilled steadily at `capacity` per `windowMs`. */
export interface BucketDraw {
  key: string;
  capacity: number;
  windowMs: number;
}

/**
 * Token buckets shared by every process, kept as GCRA: each key stores one time, its "theoretical arrival
 * time" (tat): the bucket is full when tat ≤ now, and each token moves tat on by windowMs / capacity. A
 * take is allowed while the moved tat stays within windowMs of now — exactly a token bucket of `capacity`
 * refilled at `capacity` per `windowMs`, in one number per key.
 *
 * A take draws on several buckets all or none (a visitor's message counts against its session, its
 * address and its link, or against none when one refuses): one statement, `limit_buckets_take`
 * (limits.migrations.ts), moves every bucket (upserts in key order, so two takes never lock each other's
 * keys in opposite orders), judges them and undoes them all when any is over. A hot bucket's row is held
 * only for that statement, never across a round trip to a busy process. A row whose tat has passed is a
 * full bucket, so rows are deleted once they are.
 */
export function createLimitBuckets(deps: { sql: SqlExecutor; now?: () => number; onError?: (error: unknown) => void }) {
  const now = deps.now ?? Date.now;
  const purge = expiryPurge(
    (before) => deps.sql.query(`DELETE FROM limit_buckets WHERE tat_ms < $1::float8`, [before]),
    { onError: deps.onError },
  );
  return {
    /** Takes one token from every bucket, or none: 0 when taken, else the milliseconds until it could be. */
    async take(draws: readonly BucketDraw[]): Promise<number> {
      if (draws.length === 0) return 0;
      const at = now();
      purge.maybe(at);
      const sorted = [...draws].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const { rows } = await deps.sql.query<{ wait: number }>(
        `SELECT limit_buckets_take($1::float8, $2::text[], $3::float8[], $4::float8[]) AS wait`,
        [at, sorted.map((d) => d.key), sorted.map((d) => d.windowMs / d.capacity), sorted.map((d) => d.windowMs)],
      );
      return Number(rows[0]!.wait);
    },
    /** Gives back the token a take drew from each bucket (a token taken ahead for work that was then not done). */
    async refund(draws: readonly BucketDraw[]): Promise<void> {
      for (const draw of draws)
        await deps.sql.query(`UPDATE limit_buckets SET tat_ms = tat_ms - $2::float8 WHERE key = $1`, [
          draw.key,
          draw.windowMs / draw.capacity,
        ]);
    },
    settle: () => purge.settle(),
  };
}
export type LimitBuckets = ReturnType<typeof createLimitBuckets>;
