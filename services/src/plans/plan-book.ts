import { DEFAULT_PLAN_TIER, plans, type Plan } from '@kesher/contracts';
import type { Config } from '../platform/config/config.js';

/** Which plan an account is on (port: billing will answer from subscriptions). */
export type PlanOf = (accountId: string) => Promise<Plan>;

/**
 * Until billing is built every account is on the free plan — the catalogue's, with the overrides the
 * configuration allows (tests and benchmarks raise or lower the monthly message limit).
 */
export function createPlanBook(config: Pick<Config, 'PLAN_FREE_MESSAGES_PER_MONTH'>): PlanOf {
  const base = plans[DEFAULT_PLAN_TIER];
  const free: Plan = {
    ...base,
    limits: { ...base.limits, max_messages_per_month: config.PLAN_FREE_MESSAGES_PER_MONTH ?? base.limits.max_messages_per_month },
  };
  return async () => free;
}
