import {
  AnalyticsHealthSchema,
  AssistantPerformanceSchema,
  DashboardQuerySchema,
  DashboardSchema,
  FeedbackAllStatsSchema,
  FeedbackStatsQuerySchema,
  messages,
  NumericIdParamSchema,
  PerformanceQuerySchema,
  QueriesQuerySchema,
  QueriesSchema,
  SalesAnalyticsQuerySchema,
  SalesAnalyticsSchema,
  successEnvelope,
  SystemMetricsSchema,
  TrackQueryBodySchema,
  TrackQueryResultSchema,
  UsageStatsQuerySchema,
  UsageStatsSchema,
} from '@kesher/contracts';
import { ownerScope } from '@kesher/projections/analytics/shared/owner-scope';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AnalyticsRoutesDeps, createAssistantDirectory } from '../../../analytics/index.js';
import { ApiError } from '../../api-error.js';
import { commandContext, readModelsPending } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

/** The `{ status: 'success', data }` every analytics answer is (spec part 2 §7). */
export const success = <Data>(data: Data) => ({ status: 'success' as const, data });

/**
 * Analytics (spec part 2 §7): the signed-in owner's figures only, from the analytics read models. A
 * missing or foreign assistant id answers 404 like everywhere else.
 */
export const analyticsRoutes =
  (deps: AnalyticsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = createAssistantDirectory(deps.readDb);
    const scopeOf = (request: Parameters<typeof requireAccount>[0]) => ownerScope(requireAccount(request).id);

    app.get(
      '/analytics/dashboard',
      {
        schema: {
          summary:
            'The analytics page: overview, response times, feedback and daily trends over the last `days` days (UTC, default 7)',
          querystring: DashboardQuerySchema,
          response: { 200: successEnvelope(DashboardSchema) },
        },
      },
      async (request) => success(await deps.analytics.dashboard(scopeOf(request), request.query.days)),
    );

    app.get(
      '/analytics/system-metrics',
      {
        schema: {
          summary: 'Whether analytics are current (read models against the log); process figures for operators only',
          response: { 200: successEnvelope(SystemMetricsSchema) },
        },
      },
      async (request) => success(await deps.analytics.systemMetrics(deps.isOperator(requireAccount(request)))),
    );

    app.get(
      '/analytics/assistant/:id/performance',
      {
        schema: {
          summary: "One assistant's figures over the last `days` days (default 30)",
          params: NumericIdParamSchema,
          querystring: PerformanceQuerySchema,
          response: { 200: successEnvelope(AssistantPerformanceSchema) },
        },
      },
      async (request) =>
        success(await deps.analytics.performance(scopeOf(request), request.params.id, request.query.days)),
    );

    app.post(
      '/analytics/track-query',
      {
        schema: {
          summary: "Report a query made outside Kesher's chat (chat messages are counted without it)",
          body: TrackQueryBodySchema,
          response: { 201: successEnvelope(TrackQueryResultSchema) },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const body = request.body;
        let assistantId: string | null = null;
        if (body.assistant_id !== undefined) {
          const owned = await assistants.byNumericId(ownerScope(account.id), body.assistant_id);
          if (!owned) throw new ApiError(404, messages.assistantNotFound);
          assistantId = owned.id;
        }
        const context = commandContext(request, deps.clock);
        const tracked = await deps.trackQuery(context, {
          ownerId: account.id,
          assistantId,
          query: body.query,
          responseTimeMs: body.response_time_ms ?? null,
          success: body.success,
          source: body.source,
        });
        // The answer is the command's own (its id and time): a wait that ran out only marks it pending.
        if (tracked.appended && !(await deps.awaitReadModels(tracked.appended.position, ['QueryTracked'])))
          readModelsPending(request, tracked.appended.position, ['QueryTracked']);
        return reply.status(201).send(success({ query_id: tracked.queryId, tracked_at: context.now.toISOString() }));
      },
    );

    app.get(
      '/analytics/queries',
      {
        schema: {
          summary: 'The newest queries (conversation runs and tracked queries), default 50',
          querystring: QueriesQuerySchema,
          response: { 200: successEnvelope(QueriesSchema) },
        },
      },
      async (request) =>
        success(
          await deps.analytics.queries(scopeOf(request), {
            limit: request.query.limit,
            successOnly: request.query.success_only,
            assistantNumericId: request.query.assistant_id,
          }),
        ),
    );

    app.get(
      '/analytics/usage-stats',
      {
        schema: {
          summary: 'Usage over a period: day, week (default), month (30 days), quarter (90), year (365)',
          querystring: UsageStatsQuerySchema,
          response: { 200: successEnvelope(UsageStatsSchema) },
        },
      },
      async (request) => success(await deps.analytics.usageStats(scopeOf(request), request.query.period)),
    );

    app.get(
      '/analytics/sales-analytics',
      {
        schema: {
          summary: 'Referred URLs (sales mode) by count and type over the last `days` days (default 30)',
          querystring: SalesAnalyticsQuerySchema,
          response: { 200: successEnvelope(SalesAnalyticsSchema) },
        },
      },
      async (request) =>
        success(await deps.analytics.salesAnalytics(scopeOf(request), request.query.days, request.query.limit)),
    );

    app.get(
      '/analytics/health',
      {
        schema: {
          summary: 'Whether the analytics read models are current',
          response: { 200: successEnvelope(AnalyticsHealthSchema) },
        },
      },
      async (request) => {
        requireAccount(request);
        return success(await deps.analytics.health());
      },
    );

    app.get(
      '/feedback/all-stats',
      {
        schema: {
          summary: 'Likes and dislikes on answers over the last `days` days (default 7)',
          querystring: FeedbackStatsQuerySchema,
          response: { 200: successEnvelope(FeedbackAllStatsSchema) },
        },
      },
      async (request) =>
        success(await deps.analytics.feedbackStats(scopeOf(request), request.query.days, request.query.assistant_id)),
    );
  };
