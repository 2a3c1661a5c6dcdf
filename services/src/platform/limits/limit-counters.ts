import type { SqlExecutor } from '../sql/sql.port.js';
import { expiryPurge } from './expiry.js';

export interface CounterTake {
  /** The count in the key's window, this take included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again at 0. */
  ttlMs: number;
}

/**
 * Fixed-window counters shared by every process: a key's window starts at its first take and lasts
 * `windowMs`; the next take after it starts a new one. Each take is one atomic upsert (one round trip),
 * so two processes counting the same key never both see the same number. Expired rows are deleted in the
 * background now and then.
 */
export function createLimitCounters(deps: {
  sql: SqlExecutor;
  now?: () => number;
  onError?: (error: unknown) => void;
}) {
  const now = deps.now ?? Date.now;
  const purge = expiryPurge(
    (before) => deps.sql.query(`DELETE FROM limit_counters WHERE expires_at_ms < $1::float8`, [before]),
    { onError: deps.onError },
  );
  return {
    /** Counts one (or `by`) for `key` in its current window. */
    async take(key: string, windowMs: number, by = 1): Promise<CounterTake> {
      const at = now();
      purge.maybe(at);
      const { rows } = await deps.sql.query<{ count: number; expires_at_ms: number }>(
        `INSERT INTO limit_counters AS c (key, count, window_start_ms, expires_at_ms) VALUES ($1, $3::int, $2::float8, $2::float8 + $4::float8)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN c.expires_at_ms <= $2::float8 THEN $3::int ELSE c.count + $3::int END,
           window_start_ms = CASE WHEN c.expires_at_ms <= $2::float8 THEN $2::float8 ELSE c.window_start_ms END,
           expires_at_ms = CASE WHEN c.expires_at_ms <= $2::float8 THEN $2::float8 + $4::float8 ELSE c.expires_at_ms END
         RETURNING count, expires_at_ms`,
        [key, at, by, windowMs],
      );
      const row = rows[0]!;
      return { count: Number(row.count), ttlMs: Math.max(0, Number(row.expires_at_ms) - at) };
    },
    /** The key's count in its current window without counting (0 when none is open). */
    async read(key: string): Promise<CounterTake> {
      const at = now();
      const { rows } = await deps.sql.query<{ count: number; expires_at_ms: number }>(
        `SELECT count, expires_at_ms FROM limit_counters WHERE key = $1 AND expires_at_ms > $2::float8`,
        [key, at],
      );
      const row = rows[0];
      return row
        ? { count: Number(row.count), ttlMs: Math.max(0, Number(row.expires_at_ms) - at) }
        : { count: 0, ttlMs: 0 };
    },
    /** Waits for a background purge in flight. */
    settle: () => purge.settle(),
  };
}
export type LimitCounters = ReturnType<typeof createLimitCounters>;
