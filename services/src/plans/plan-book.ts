import { DEFAULT_PLAN_TIER, plans, type Plan } from '@kesher/contracts';
import type { Config } from '../platform/config/config.js';

/** Which plan an account is on (port: billing will answer from subscriptions). */
export type PlanOf = (accountId: string) => Promise<Plan>;

/**
 * Until billing is built every account is on the free plan — the catalogue's, with the overrides the
 * configuration allows (tests and benchmarks raise or lower the monthly messages, assistants and files).
 */
export function createPlanBook(config: Pick<Config, 'PLAN_FREE_MESSAGES_PER_MONTH' | 'PLAN_FREE_MAX_ASSISTANTS' | 'PLAN_FREE_MAX_FILES'>): PlanOf {
  const base = plans[DEFAULT_PLAN_TIER];
  const free: Plan = {
    ...base,
    limits: {
      ...base.limits,
      max_messages_per_month: config.PLAN_FREE_MESSAGES_PER_MONTH ?? base.limits.max_messages_per_month,
      max_assistants: config.PLAN_FREE_MAX_ASSISTANTS ?? base.limits.max_assistants,
      max_files: config.PLAN_FREE_MAX_FILES ?? base.limits.max_files,
    },
  };
  return async () => free;
}
