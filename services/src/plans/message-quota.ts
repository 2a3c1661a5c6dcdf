import { usageMonth } from '@kesher/contracts';
import type { UsageQueries } from '@kesher/projections/usage/usage.queries';
import type { PlanOf } from './plan-book.js';

export interface QuotaCheck {
  allowed: boolean;
  used: number;
  limit: number;
}

/**
 * The plan's monthly message limit: the user messages an owner's assistants received this calendar month
 * (UTC; visitors' included) against the owner's plan. It reads the usage read model, so two messages
 * posted at the same instant may both pass at the last free place: the limit can be exceeded by the
 * messages in flight at that moment, never by more. (A hard cap would need one stream per owner and
 * month that every message appends to, serialising each owner's chat; not worth it for a monthly quota.)
 */
export function createMessageQuota(deps: { planOf: PlanOf; usage: UsageQueries; clock: () => Date }) {
  return {
    async check(ownerId: string): Promise<QuotaCheck> {
      const [plan, used] = await Promise.all([deps.planOf(ownerId), deps.usage.messagesInMonth(ownerId, usageMonth(deps.clock()))]);
      const limit = plan.limits.max_messages_per_month;
      return { allowed: used < limit, used, limit };
    },
  };
}

export type MessageQuota = ReturnType<typeof createMessageQuota>;
