import { plans } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { createMessageQuota } from './message-quota.js';
import { createPlanBook } from './plan-book.js';

describe('plans before billing', () => {
  it('puts every account on the free plan, whose monthly messages the configuration may override', async () => {
    expect(await createPlanBook({})('anyone')).toEqual(plans.FREE);
    const raised = await createPlanBook({ PLAN_FREE_MESSAGES_PER_MONTH: 1_000_000 })('anyone');
    expect(raised.limits).toEqual({ ...plans.FREE.limits, max_messages_per_month: 1_000_000 });
    expect(plans.FREE.limits.max_messages_per_month).toBe(100);
  });

  it('allows a message while the month has room, counting in the UTC month of now', async () => {
    const asked: string[] = [];
    const quota = (used: number) =>
      createMessageQuota({
        planOf: createPlanBook({ PLAN_FREE_MESSAGES_PER_MONTH: 3 }),
        usage: { messagesInMonth: async (_owner, month) => (asked.push(month), used) },
        clock: () => new Date('2026-01-31T23:30:00-02:00'),
      });
    expect(await quota(2).check('o1')).toEqual({ allowed: true, used: 2, limit: 3 });
    expect(await quota(3).check('o1')).toEqual({ allowed: false, used: 3, limit: 3 });
    expect(asked).toEqual(['2026-02', '2026-02']);
  });
});
