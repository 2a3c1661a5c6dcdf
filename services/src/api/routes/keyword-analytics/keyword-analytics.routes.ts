import {
  AnalyticsHealthSchema,
  KeywordDashboardSchema,
  KeywordListSchema,
  KeywordQuerySchema,
  KeywordTrendsQuerySchema,
  KeywordTrendsSchema,
  successEnvelope,
} from '@kesher/contracts';
import { ownerScope } from '@kesher/projections/analytics/shared/owner-scope';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { KeywordAnalyticsRoutesDeps } from '../../../analytics/index.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { success } from '../analytics/analytics.routes.js';

/** The keyword read model's name, as its health reports it. */
const KEYWORD_READ_MODELS = ['analytics-keywords'];

/** Keyword analytics (spec part 2 §7): what customers ask about and what the assistants answer with. */
export const keywordAnalyticsRoutes =
  (deps: KeywordAnalyticsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const scopeOf = (request: FastifyRequest) => ownerScope(requireAccount(request).id);

    app.get(
      '/keyword-analytics/customer-keywords',
      {
        schema: {
          summary: "The words customers' messages mention most (days default 30, limit default 10)",
          querystring: KeywordQuerySchema,
          response: { 200: successEnvelope(KeywordListSchema) },
        },
      },
      async (request) =>
        success(
          await deps.analytics.keywordList(
            scopeOf(request),
            'customer',
            request.query.days,
            request.query.limit,
            request.query.assistant_id,
          ),
        ),
    );

    app.get(
      '/keyword-analytics/assistant-keywords',
      {
        schema: {
          summary: "The words the assistants' answers mention most (days default 30, limit default 10)",
          querystring: KeywordQuerySchema,
          response: { 200: successEnvelope(KeywordListSchema) },
        },
      },
      async (request) =>
        success(
          await deps.analytics.keywordList(
            scopeOf(request),
            'assistant',
            request.query.days,
            request.query.limit,
            request.query.assistant_id,
          ),
        ),
    );

    app.get(
      '/keyword-analytics/keyword-trends',
      {
        schema: {
          summary: 'The top keywords per day over the range (days default 30, limit default 5)',
          querystring: KeywordTrendsQuerySchema,
          response: { 200: successEnvelope(KeywordTrendsSchema) },
        },
      },
      async (request) =>
        success(
          await deps.analytics.keywordTrends(
            scopeOf(request),
            request.query.source,
            request.query.days,
            request.query.limit,
            request.query.assistant_id,
          ),
        ),
    );

    app.get(
      '/keyword-analytics/dashboard',
      {
        schema: {
          summary: 'Customer and assistant keywords together (days default 30, limit default 10)',
          querystring: KeywordQuerySchema,
          response: { 200: successEnvelope(KeywordDashboardSchema) },
        },
      },
      async (request) =>
        success(
          await deps.analytics.keywordDashboard(
            scopeOf(request),
            request.query.days,
            request.query.limit,
            request.query.assistant_id,
          ),
        ),
    );

    app.get(
      '/keyword-analytics/health',
      {
        schema: {
          summary: 'Whether the keyword read model is current',
          response: { 200: successEnvelope(AnalyticsHealthSchema) },
        },
      },
      async (request) => {
        requireAccount(request);
        return success(await deps.analytics.health(KEYWORD_READ_MODELS));
      },
    );
  };
