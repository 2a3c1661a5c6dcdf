import {
  LimitCheckBodySchema,
  LimitCheckSchema,
  LimitsAnalyticsSchema,
  LimitsStatusSchema,
  LimitTrendsSchema,
  nextUsageMonthStart,
  PlanLimitsViewSchema,
  successEnvelope,
  TrendsQuerySchema,
  UsageHistoryQuerySchema,
  UsageHistorySchema,
  UsageResponseSchema,
  usageMonth,
  ViolationsQuerySchema,
  ViolationsSchema,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { LimitsService } from '../../../analytics/index.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { MessageQuota, PlanOf } from '../../../plans/index.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { success } from '../analytics/analytics.routes.js';

export interface LimitsRoutesDeps {
  readDb: Sql;
  planOf: PlanOf;
  /** Bytes of the owner's knowledge files (the knowledge read model). */
  storageUsed: (ownerId: string) => Promise<number>;
  clock: () => Date;
  /** Read-your-writes: the owner's messages just accepted are counted before the figures are read. */
  messageQuota?: Pick<MessageQuota, 'settled'>;
  /** The limits page's figures (plan, status, history, trends, refusals recorded). */
  limitsService: LimitsService;
}

/**
 * The signed-in owner's plan and usage (spec part 2 §7 Limits, all eight calls). `/limits/usage` answers
 * its figures bare, as the billing page reads them; the other calls use the analytics envelope
 * `{ status: 'success', data }`, since the analytics page reads them beside the analytics calls.
 */
export const limitsRoutes =
  (deps: LimitsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const usage = usageQueries(deps.readDb);

    app.get(
      '/limits/usage',
      {
        schema: {
          summary: "The owner's usage this month against the plan's limits (messages reset on the 1st, UTC)",
          response: { 200: UsageResponseSchema },
        },
      },
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
    const service = deps.limitsService;
    const ownerOf = (request: Parameters<typeof requireAccount>[0]) => requireAccount(request).id;

    app.get(
      '/limits/limits',
      {
        schema: {
          summary: "The owner's plan: its limits and features, and the current month",
          response: { 200: successEnvelope(PlanLimitsViewSchema) },
        },
      },
      async (request) => success(await service.limits(ownerOf(request))),
    );

    app.get(
      '/limits/status',
      {
        schema: {
          summary: 'Usage against each limit with its state (50/75/90 % bands), warnings and recommendations',
          response: { 200: successEnvelope(LimitsStatusSchema) },
        },
      },
      async (request) => success(await service.status(ownerOf(request))),
    );

    app.post(
      '/limits/check',
      {
        schema: {
          summary:
            'Would `amount` more be allowed now (messages, assistants, files of an assistant, storage bytes)? Records nothing',
          body: LimitCheckBodySchema,
          response: { 200: successEnvelope(LimitCheckSchema) },
        },
      },
      async (request) => success(await service.check(ownerOf(request), request.body)),
    );

    app.get(
      '/limits/usage/history',
      {
        schema: {
          summary: 'Usage per day over the last `days` days (default 30)',
          querystring: UsageHistoryQuerySchema,
          response: { 200: successEnvelope(UsageHistorySchema) },
        },
      },
      async (request) => success(await service.history(ownerOf(request), request.query.days)),
    );

    app.get(
      '/limits/violations',
      {
        schema: {
          summary: 'Requests a limit refused over the last `days` days (default 7), optionally of one type',
          querystring: ViolationsQuerySchema,
          response: { 200: successEnvelope(ViolationsSchema) },
        },
      },
      async (request) =>
        success(await service.violations(ownerOf(request), request.query.days, request.query.violation_type)),
    );

    app.get(
      '/limits/trends',
      {
        schema: {
          summary:
            'Usage per period: daily, weekly (default; weeks start Monday, UTC) or monthly, the last `periods` (default 4)',
          querystring: TrendsQuerySchema,
          response: { 200: successEnvelope(LimitTrendsSchema) },
        },
      },
      async (request) => success(await service.trends(ownerOf(request), request.query)),
    );

    app.get(
      '/limits/analytics',
      {
        schema: {
          summary: "The analytics page's usage-limits card: the limits status and quick stats",
          response: { 200: successEnvelope(LimitsAnalyticsSchema) },
        },
      },
      async (request) => success(await service.analytics(ownerOf(request))),
    );
  };
