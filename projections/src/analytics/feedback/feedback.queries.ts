import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, rangeFilter, type DayRange, type OwnerScope } from '../shared/owner-scope.js';

export interface FeedbackFigures {
  positive: number;
  negative: number;
  withComments: number;
}

export function feedbackQueries(db: Queryable) {
  return {
    async totals(scope: OwnerScope, range: DayRange, assistantId?: string | null): Promise<FeedbackFigures> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      const { rows } = await db.query<{ positive: unknown; negative: unknown; with_comments: unknown }>(
        `SELECT coalesce(sum(positive), 0) AS positive, coalesce(sum(negative), 0) AS negative, coalesce(sum(with_comments), 0) AS with_comments
         FROM analytics_feedback_daily WHERE ${where}`,
        params,
      );
      return {
        positive: num(rows[0]?.positive),
        negative: num(rows[0]?.negative),
        withComments: num(rows[0]?.with_comments),
      };
    },
  };
}

export type FeedbackQueries = ReturnType<typeof feedbackQueries>;
