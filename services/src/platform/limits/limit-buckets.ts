import type { Sql } from '../sql/sql.port.js';
import { expiryPurge } from './expiry.js';

/** One bucket drawn on: a burst of `capacity`, refilled steadily at `capacity` per `windowMs`. */
export interface BucketDraw {
  key: string;
  capacity: number;
  windowMs: number;
}

/** Thrown inside the transaction to roll back the draws of a refused take. */
class Refused extends Error {
  constructor(readonly waitMs: number) {
    super('refused');
  }
}

/**
 * Token buckets shared by every process, kept as GCRA: each key stores one time, its "theoretical arrival
 * time" (tat): the bucket is full when tat ≤ now, and each token moves tat on by windowMs / capacity. A
 * take is allowed while the moved tat stays within windowMs of now — exactly a token bucket of `capacity`
 * refilled at `capacity` per `windowMs`, in one number per key.
 *
 * A take draws on several buckets all or none (a visitor's message counts against its session, its
 * address and its link, or against none when one refuses): one transaction moves every bucket
 * (upserts in key order, so two takes never lock each other's keys in opposite orders) and rolls back
 * when any is over. A row whose tat has passed is a full bucket, so rows are deleted once they are.
 */
export function createLimitBuckets(deps: { sql: Sql; now?: () => number; onError?: (error: unknown) => void }) {
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
      const byKey = new Map(sorted.map((draw) => [draw.key, draw]));
      try {
        await deps.sql.transaction(async (tx) => {
          const { rows } = await tx.query<{ key: string; tat_ms: number }>(
            `INSERT INTO limit_buckets AS b (key, tat_ms)
             SELECT d.key, $1::float8 + d.step FROM unnest($2::text[], $3::float8[]) WITH ORDINALITY AS d(key, step, n) ORDER BY d.n
             ON CONFLICT (key) DO UPDATE SET tat_ms = GREATEST(b.tat_ms, $1::float8) + EXCLUDED.tat_ms - $1::float8
             RETURNING key, tat_ms`,
            [at, sorted.map((d) => d.key), sorted.map((d) => d.windowMs / d.capacity)],
          );
          const waits = rows.map((row) => {
            const draw = byKey.get(row.key)!;
            // Over when the bucket would need more than its capacity: the wait is until it would not.
            return Math.max(0, Math.ceil(Number(row.tat_ms) - at - draw.windowMs - 1e-6));
          });
          const wait = Math.max(0, ...waits);
          if (wait > 0) throw new Refused(wait);
        });
        return 0;
      } catch (error) {
        if (error instanceof Refused) return error.waitMs;
        throw error;
      }
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
