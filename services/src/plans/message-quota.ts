import { usageMonth, type AllPosition } from '@kesher/contracts';
import type { UsageQueries } from '@kesher/projections/usage/usage.queries';
import type { WriteMarks } from '../platform/projections/write-marks.js';
import type { PlanOf } from './plan-book.js';

export interface QuotaCheck {
  allowed: boolean;
  used: number;
  limit: number;
}

/**
 * The plan's monthly message limit: the messages an owner's assistants answered this calendar month
 * (UTC; visitors' included) against the owner's plan. Only answers count (issue 21 item 12): a message
 * refused, or whose run failed or expired, costs nothing; a run being answered holds its place until it
 * settles. It reads the usage read model, so two runs requested at the same instant may both pass at the
 * last free place: the limit can be exceeded by the runs requested at that moment, never by more. (A hard
 * cap would need one stream per owner and month that every run appends to, serialising each owner's
 * chat; not worth it for a monthly quota.)
 *
 * Runs are requested before the usage read model has seen them (chat turns do not wait for the
 * projector), so the quota remembers the ones requested in this process since the owner's count was last
 * known to include them (write marks). Far from the limit, the read model's count plus those is enough;
 * only when that sum reaches the limit does the check wait for the read model and count exactly.
 */
export function createMessageQuota(deps: { planOf: PlanOf; usage: Pick<UsageQueries, 'quotaUsed'>; clock: () => Date; accepted: WriteMarks }) {
  const key = (ownerId: string) => `owner:${ownerId}`;
  const count = (ownerId: string) => deps.usage.quotaUsed(ownerId, usageMonth(deps.clock()));
  return {
    async check(ownerId: string): Promise<QuotaCheck> {
      const [plan, counted] = await Promise.all([deps.planOf(ownerId), count(ownerId)]);
      const limit = plan.limits.max_messages_per_month;
      if (counted + deps.accepted.pending(key(ownerId)) < limit) return { allowed: true, used: counted, limit };
      await deps.accepted.settle(key(ownerId));
      const used = await count(ownerId);
      return { allowed: used < limit, used, limit };
    },
    /** A run was requested of one of `ownerId`'s assistants; its event is at `position`. */
    accepted(ownerId: string, position: AllPosition) {
      deps.accepted.note(key(ownerId), position, ['RunRequested']);
    },
    /** Read-your-writes for the owner's usage figures: waits until the count includes what was accepted. */
    settled: (ownerId: string) => deps.accepted.settle(key(ownerId)),
  };
}

export type MessageQuota = ReturnType<typeof createMessageQuota>;
