import type { ReferralType } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, rangeFilter, type DayRange, type OwnerScope } from '../shared/owner-scope.js';
import { referralTypeOfCategory } from './referral-classifier.js';

/** The crawler's category when it saw the page, else the type guessed from the address. */
const TYPE = `coalesce(CASE c.category ${Object.entries(referralTypeOfCategory)
  .map(([category, type]) => `WHEN '${category}' THEN '${type}'`)
  .join(' ')} END, d.guessed_type)`;

export interface ReferralRanking {
  top: { url: string; type: ReferralType; count: number }[];
  total: number;
  uniqueUrls: number;
  byType: { type: ReferralType; count: number }[];
}

export function referralQueries(db: Queryable) {
  return {
    async ranking(
      scope: OwnerScope,
      range: DayRange,
      limit: number,
      assistantId?: string | null,
    ): Promise<ReferralRanking> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId, prefix: 'd.' });
      const grouped = `SELECT d.url, ${TYPE} AS type, sum(d.referrals) AS count
        FROM analytics_referrals_daily d LEFT JOIN analytics_page_categories c ON c.url = d.url WHERE ${where} GROUP BY d.url, 2`;
      const top = await db.query<{ url: string; type: ReferralType; count: unknown; total: unknown; urls: unknown }>(
        `WITH r AS (${grouped}) SELECT url, type, count, sum(count) OVER () AS total, count(*) OVER () AS urls FROM r ORDER BY count DESC, url LIMIT $${params.length + 1}`,
        [...params, limit],
      );
      const byType = await db.query<{ type: ReferralType; count: unknown }>(
        `WITH r AS (${grouped}) SELECT type, sum(count) AS count FROM r GROUP BY type ORDER BY 2 DESC, type`,
        params,
      );
      return {
        top: top.rows.map((row) => ({ url: row.url, type: row.type, count: num(row.count) })),
        total: num(top.rows[0]?.total),
        uniqueUrls: num(top.rows[0]?.urls),
        byType: byType.rows.map((row) => ({ type: row.type, count: num(row.count) })),
      };
    },
  };
}

export type ReferralQueries = ReturnType<typeof referralQueries>;
