import { nextUsageMonthStart, usageMonth, type UsageResponse } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import type { Queryable } from '@kesher/contracts/ports/projection';
import type { PlanOf } from '../plans/index.js';

/**
 * The owner's usage against the plan in force (spec §3 Usage), as GET /subscriptions/usage answers it —
 * the same figures as GET /limits/usage: assistants, this UTC month's messages, storage in MB.
 */
export function createUsageReport(deps: {
  readDb: Queryable;
  planOf: PlanOf;
  storageUsed: (ownerId: string) => Promise<number>;
  clock: () => Date;
  settled?: (ownerId: string) => Promise<unknown>;
}) {
  const assistants = assistantQueries(deps.readDb);
  const usage = usageQueries(deps.readDb);
  return async (ownerId: string): Promise<UsageResponse> => {
    await deps.settled?.(ownerId);
    const now = deps.clock();
    const month = usageMonth(now);
    const [plan, owned, messages, bytes] = await Promise.all([
      deps.planOf(ownerId),
      assistants.listByOwner(ownerId),
      usage.messagesInMonth(ownerId, month),
      deps.storageUsed(ownerId),
    ]);
    return {
      tier: plan.tier,
      usage: { assistants: owned.length, messages, storage_mb: Math.round((bytes / (1024 * 1024)) * 100) / 100 },
      limits: plan.limits,
      period_start: `${month}-01T00:00:00.000Z`,
      period_end: nextUsageMonthStart(now).toISOString(),
    };
  };
}
