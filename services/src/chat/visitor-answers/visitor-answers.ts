import { createHash } from 'node:crypto';
import { addressKey } from '../../identity/index.js';
import type { Sql } from '../../platform/sql/sql.port.js';

/** One visitor of one assistant on one UTC day (`YYYY-MM-DD`): known by their session and by their address. */
export interface VisitorDay {
  assistantId: string;
  sessionHash: string;
  ip: string;
  day: string;
}

/**
 * The answers each visitor got today, for the per-visitor daily allowance (issue 21 item 12: one address
 * spent a free plan's month in three minutes, and every other visitor was refused until the 1st).
 * A port, so that the chat service does not know where they are kept.
 */
export interface VisitorAnswers {
  /**
   * The visitor's answers today — the larger of their session's and their address's, as session tokens
   * are free to make up — counting runs still being answered, not those that failed or expired.
   */
  used(visitor: VisitorDay): Promise<number>;
  /** A run was requested for the visitor (after its request was recorded). */
  requested(visitor: VisitorDay, runId: string): Promise<void>;
}

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The address is kept only as a hash, and only for two days. */
const addressHash = (ip: string) =>
  createHash('sha256')
    .update(`visitor-address|${addressKey(ip)}`)
    .digest('hex');

/**
 * Postgres: one row per visitor run (the chat module's `visitor_runs`), whose outcome is read from the
 * threads read model — a run it does not show yet counts, as one being answered. Counting in Postgres,
 * not in memory, holds the allowance across API processes and restarts. Rows older than yesterday are
 * removed once a day per process.
 *
 * Two runs requested at the same instant may both pass at the last place (the check and the record are
 * not one statement); one active run per conversation and the per-minute rate limits keep that to a few.
 */
export function createSqlVisitorAnswers(sql: Sql): VisitorAnswers {
  let purgedBefore = '';
  return {
    async used(visitor) {
      const { rows } = await sql.query<{ by_session: string | number; by_address: string | number }>(
        `SELECT count(*) FILTER (WHERE v.session_hash = $3) AS by_session, count(*) FILTER (WHERE v.address_hash = $4) AS by_address
         FROM visitor_runs v LEFT JOIN thread_runs r ON r.id = v.run_id
         WHERE v.assistant_id = $1 AND v.day = $2::date AND (v.session_hash = $3 OR v.address_hash = $4)
           AND (r.status IS NULL OR r.status NOT IN ('failed', 'expired'))`,
        [visitor.assistantId, visitor.day, visitor.sessionHash, addressHash(visitor.ip)],
      );
      return Math.max(Number(rows[0]?.by_session ?? 0), Number(rows[0]?.by_address ?? 0));
    },

    async requested(visitor, runId) {
      await sql.query(
        `INSERT INTO visitor_runs (run_id, assistant_id, day, session_hash, address_hash) VALUES ($1, $2, $3::date, $4, $5) ON CONFLICT (run_id) DO NOTHING`,
        [runId, visitor.assistantId, visitor.day, visitor.sessionHash, addressHash(visitor.ip)],
      );
      if (purgedBefore !== visitor.day) {
        purgedBefore = visitor.day;
        await sql.query(`DELETE FROM visitor_runs WHERE day < $1::date - 1`, [visitor.day]);
      }
    },
  };
}
