import { plans } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import type { SubscriptionRow } from '@kesher/projections/billing/billing.queries';
import { createPlanBook } from './plan-book.js';

describe('plans before billing', () => {
  it('puts every account on the free plan, whose monthly messages the configuration may override', async () => {
    expect(await createPlanBook({})('anyone')).toEqual(plans.FREE);
    const raised = await createPlanBook({ PLAN_FREE_MESSAGES_PER_MONTH: 1_000_000 })('anyone');
    expect(raised.limits).toEqual({ ...plans.FREE.limits, max_messages_per_month: 1_000_000 });
    expect(plans.FREE.limits.max_messages_per_month).toBe(100);
    const counted = await createPlanBook({ PLAN_FREE_MAX_ASSISTANTS: 20, PLAN_FREE_MAX_FILES: 3 })('anyone');
    expect(counted.limits).toEqual({ ...plans.FREE.limits, max_assistants: 20, max_files: 3 });
  });

  it("remembers an owner's subscription row only while the billing read model has not moved", async () => {
    let version: string | undefined = '1:1';
    let row: SubscriptionRow | null = null;
    let reads = 0;
    const planOf = createPlanBook(
      {},
      {
        subscriptionOf: async () => (reads++, row),
        clock: () => new Date('2026-02-10T00:00:00Z'),
        version: () => version,
      },
    );
    expect((await planOf('o1')).tier).toBe('FREE');
    expect((await planOf('o1')).tier).toBe('FREE');
    expect(reads).toBe(1);
    // A payment lands: the read model's checkpoint moves, and the next check reads the new row.
    row = {
      owner_id: 'o1',
      subscription_id: 's1',
      provider: 'test',
      tier: 'PRO',
      billing_period: 'monthly',
      status: 'active',
      cancel_at_period_end: false,
      current_period_start: '2026-02-01T00:00:00.000Z',
      current_period_end: '2026-03-01T00:00:00.000Z',
      trial_end: null,
      customer_id: null,
    };
    version = '2:7';
    expect((await planOf('o1')).tier).toBe('PRO');
    expect((await planOf('o1')).tier).toBe('PRO');
    expect(reads).toBe(2);
    // The version unknown (the projector runs in another process): every check reads.
    version = undefined;
    await planOf('o1');
    await planOf('o1');
    expect(reads).toBe(4);
  });
});
