import { nextUsageMonthStart, UsageResponseSchema, usageMonth } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { MessageQuota } from '../../../plans/message-quota.js';
import type { PlanOf } from '../../../plans/plan-book.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface LimitsRoutesDeps {
  readDb: Sql;
  planOf: PlanOf;
  /** Bytes of the owner's knowledge files (the knowledge read model). */
  storageUsed: (ownerId: string) => Promise<number>;
  clock: () => Date;
  /** Read-your-writes: the owner's messages just accepted are counted before the figures are read. */
  messageQuota?: Pick<MessageQuota, 'settled'>;
}

/** The signed-in owner's plan usage (spec part 2 §7 Limits). */
export const limitsRoutes =
  (deps: LimitsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const usage = usageQueries(deps.readDb);

    app.get(
      '/limits/usage',
      { schema: { summary: "The owner's usage this month against the plan's limits (messages reset on the 1st, UTC)", response: { 200: UsageResponseSchema } } },
      async (request) => {
        const account = requireAccount(request);
        await deps.messageQuota?.settled(account.id);
        const now = deps.clock();
        const month = usageMonth(now);
        const [plan, owned, messages, bytes] = await Promise.all([
          deps.planOf(account.id),
          assistants.listByOwner(account.id),
          usage.messagesInMonth(account.id, month),
          deps.storageUsed(account.id),
        ]);
        return {
          tier: plan.tier,
          usage: { assistants: owned.length, messages, storage_mb: Math.round((bytes / (1024 * 1024)) * 100) / 100 },
          limits: plan.limits,
          period_start: `${month}-01T00:00:00.000Z`,
          period_end: nextUsageMonthStart(now).toISOString(),
        };
      },
    );
  };
