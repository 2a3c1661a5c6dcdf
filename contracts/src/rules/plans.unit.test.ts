import { describe, expect, it } from 'vitest';
import { nextUsageMonthStart, planPrice, plans, PlanSchema, usageMonth, YEARLY_SAVING_PERCENT } from './plans.js';

describe('the plan catalogue', () => {
  it("enforces the spec's comparison table (part 2 §9)", () => {
    const tiers = [plans.FREE, plans.PRO, plans.ENTERPRISE];
    tiers.forEach((plan) => PlanSchema.parse(plan));
    const row = (key: keyof (typeof plans)['FREE']['limits']) => tiers.map((p) => p.limits[key]);
    expect(row('max_assistants')).toEqual([1, 10, 100]);
    expect(row('max_messages_per_month')).toEqual([100, 5_000, 50_000]);
    expect(row('max_files')).toEqual([5, 50, 500]);
    expect(row('max_crawl_pages')).toEqual([50, 1_000, 10_000]);
    expect(row('max_storage_mb')).toEqual([100, 5 * 1024, 50 * 1024]);
  });

  it('prices in ILS minor units, a 14-day trial on paid monthly plans, and a year that saves 17%', () => {
    expect(Object.values(plans).every((p) => p.currency === 'ILS' && Number.isInteger(p.price_monthly))).toBe(true);
    expect([plans.FREE.trial_days, plans.PRO.trial_days, plans.ENTERPRISE.trial_days]).toEqual([0, 14, 14]);
    for (const tier of ['PRO', 'ENTERPRISE'] as const) {
      const saving = 1 - planPrice(tier, 'yearly') / (12 * planPrice(tier, 'monthly'));
      expect(Math.round(saving * 100)).toBe(YEARLY_SAVING_PERCENT);
    }
  });

  it('counts usage by UTC calendar month', () => {
    expect(usageMonth(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03');
    expect(usageMonth(new Date('2026-04-01T00:00:00.000Z'))).toBe('2026-04');
    expect(nextUsageMonthStart(new Date('2026-12-15T10:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
