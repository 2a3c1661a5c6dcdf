import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nextUsageMonthStart, plans, PlanSchema, usageMonth } from './plans.js';

/** The pricing page's comparison table, read as text: the client is not a dependency of contracts. */
function pricingRow(label: string): number[] {
  const page = readFileSync(new URL('../../../client/src/features/marketing/locales/en.ts', import.meta.url), 'utf8');
  const row = new RegExp(`label: '${label}', values: \\[([^\\]]*)\\]`).exec(page);
  if (!row) throw new Error(`the pricing page has no row '${label}'`);
  return [...row[1]!.matchAll(/'([\d,]+)'/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
}

describe('the plan catalogue', () => {
  it('is valid, and enforces what the pricing page advertises (Free, Standard = PRO, Premium = ENTERPRISE)', () => {
    const tiers = [plans.FREE, plans.PRO, plans.ENTERPRISE];
    tiers.forEach((plan) => PlanSchema.parse(plan));
    expect(tiers.map((p) => p.name)).toEqual(['Free', 'Standard', 'Premium']);
    expect(tiers.map((p) => p.limits.max_assistants)).toEqual(pricingRow('Agents'));
    expect(tiers.map((p) => p.limits.max_messages_per_month)).toEqual(pricingRow('Queries per month'));
    expect(tiers.map((p) => p.limits.max_files)).toEqual(pricingRow('Documents per agent'));
    expect(tiers.map((p) => p.price_monthly / 100)).toEqual([0, 50, 100]);
  });

  it('counts usage by UTC calendar month', () => {
    expect(usageMonth(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03');
    expect(usageMonth(new Date('2026-04-01T00:00:00.000Z'))).toBe('2026-04');
    expect(nextUsageMonthStart(new Date('2026-12-15T10:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
