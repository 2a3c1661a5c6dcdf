import type { Queryable } from '@kesher/contracts/ports/projection';

export function usageQueries(db: Queryable) {
  return {
    /** User messages all of the owner's assistants received in `month` (`YYYY-MM`, UTC). */
    async messagesInMonth(ownerId: string, month: string): Promise<number> {
      const { rows } = await db.query<{ n: number | string | null }>(`SELECT coalesce(sum(messages), 0) AS n FROM usage_monthly_messages WHERE owner_id = $1 AND month = $2`, [
        ownerId,
        month,
      ]);
      return Number(rows[0]?.n ?? 0);
    },
  };
}

export type UsageQueries = ReturnType<typeof usageQueries>;
