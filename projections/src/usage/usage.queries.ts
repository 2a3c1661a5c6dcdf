import type { Queryable } from '@kesher/contracts/ports/projection';

/**
 * What the plan's monthly limit counts, as an SQL expression over the owner's id and the month (`YYYY-MM`)
 * passed as the given parameters: for callers that read it in the same statement (and snapshot) as their own
 * tables (plans/message-quota.ts).
 */
export const quotaUsedExpression = (owner: string, month: string) =>
  `((SELECT coalesce(sum(messages), 0) FROM usage_monthly_messages WHERE owner_id = ${owner} AND month = ${month})
    + (SELECT count(*) FROM usage_open_runs o JOIN usage_threads t ON t.thread_id = o.thread_id WHERE t.assistant_owner_id = ${owner}))`;

export function usageQueries(db: Queryable) {
  return {
    /**
     * What the plan's monthly limit counts: the messages answered in `month` plus the runs being answered
     * now (each will be an answer, unless it fails or expires and gives its place back).
     */
    async quotaUsed(ownerId: string, month: string): Promise<number> {
      const { rows } = await db.query<{ n: number | string | null }>(`SELECT ${quotaUsedExpression('$1', '$2')} AS n`, [
        ownerId,
        month,
      ]);
      return Number(rows[0]?.n ?? 0);
    },

    /** Messages all of the owner's assistants answered in `month` (`YYYY-MM`, UTC). */
    async messagesInMonth(ownerId: string, month: string): Promise<number> {
      const { rows } = await db.query<{ n: number | string | null }>(
        `SELECT coalesce(sum(messages), 0) AS n FROM usage_monthly_messages WHERE owner_id = $1 AND month = $2`,
        [ownerId, month],
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

export type UsageQueries = ReturnType<typeof usageQueries>;
