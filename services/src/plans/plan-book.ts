import { DEFAULT_PLAN_TIER, plans, type Plan } from '@kesher/contracts';
import type { SubscriptionRow } from '@kesher/projections/billing/billing.queries';
import { subscriptionLapsed } from '../domain/subscription/subscription.decider.js';
import type { Config } from '../platform/config/config.js';

/** Which plan an account is on, now. */
export type PlanOf = (accountId: string) => Promise<Plan>;

export interface PlanBookDeps {
  /** The owner's paid subscription from the billing read model (null: the free plan). */
  subscriptionOf: (ownerId: string) => Promise<SubscriptionRow | null>;
  clock: () => Date;
  /**
   * The billing read model's version when this process knows it exactly (its projector runs here: the
   * checkpoint it reports after each committed batch); undefined when it does not. With it, an owner's
   * row is remembered until the read model moves, so a limit check costs no query; without it, every
   * check asks the read model.
   */
  version?: () => string | undefined;
}

/** How many owners' rows the plan book remembers (a row is a few hundred bytes). */
const CACHED_OWNERS = 10_000;

/** A subscription row still gives its plan at `now` (a lapsed one — cancelled, unpaid or a test payment past its period — does not). */
export function rowGivesPlan(row: SubscriptionRow, now: Date): boolean {
  return !subscriptionLapsed(
    {
      ...row,
      subscriptionId: row.subscription_id,
      billingPeriod: row.billing_period,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      currentPeriodStart: row.current_period_start,
      currentPeriodEnd: row.current_period_end,
      trialEnd: row.trial_end,
      checkoutId: null,
    },
    now.toISOString(),
  );
}

/**
 * The plan in force: the paid plan of the owner's live subscription (billing read model), else the free
 * plan — the catalogue's, with the overrides the configuration allows (tests and benchmarks raise or
 * lower its monthly messages, assistants and files). Every limit asks here, so limits follow a payment
 * as soon as the read model has it (routes that change the subscription wait for that before answering),
 * and go back to FREE at the end of a cancelled or unpaid period without anything having to run.
 * Without `deps` (processes that enforce no paid plan) everyone is on the free plan.
 */
export function createPlanBook(
  config: Pick<
    Config,
    'PLAN_FREE_MESSAGES_PER_MONTH' | 'PLAN_FREE_MAX_ASSISTANTS' | 'PLAN_FREE_MAX_FILES' | 'PLAN_FREE_MAX_CRAWL_PAGES'
  >,
  deps?: PlanBookDeps,
): PlanOf {
  const base = plans[DEFAULT_PLAN_TIER];
  const free: Plan = {
    ...base,
    limits: {
      ...base.limits,
      max_messages_per_month: config.PLAN_FREE_MESSAGES_PER_MONTH ?? base.limits.max_messages_per_month,
      max_assistants: config.PLAN_FREE_MAX_ASSISTANTS ?? base.limits.max_assistants,
      max_files: config.PLAN_FREE_MAX_FILES ?? base.limits.max_files,
      max_crawl_pages: config.PLAN_FREE_MAX_CRAWL_PAGES ?? base.limits.max_crawl_pages,
    },
  };
  if (!deps) return async () => free;
  const inForce = (row: SubscriptionRow | null) => (row && rowGivesPlan(row, deps.clock()) ? plans[row.tier] : free);
  if (!deps.version) return async (ownerId) => inForce(await deps.subscriptionOf(ownerId));
  const version = deps.version;
  // Versioned by the read model, not by time: an entry is used only while the read model has applied
  // nothing since it was read, so a payment or a cancel is seen at the next check. The version is taken
  // before the read, so a change that lands during the read only makes the entry look older than it is.
  const rows = new Map<string, { version: string; row: SubscriptionRow | null }>();
  return async (ownerId) => {
    const at = version();
    const cached = at === undefined ? undefined : rows.get(ownerId);
    if (cached && cached.version === at) return inForce(cached.row);
    const row = await deps.subscriptionOf(ownerId);
    if (at !== undefined) {
      rows.delete(ownerId);
      if (rows.size >= CACHED_OWNERS) rows.delete(rows.keys().next().value!);
      rows.set(ownerId, { version: at, row });
    }
    return inForce(row);
  };
}
