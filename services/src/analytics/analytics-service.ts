import { loadavg } from 'node:os';
import {
  messages,
  usagePeriodDays,
  type AllPosition,
  type AssistantPerformance,
  type Dashboard,
  type FeedbackStats,
  type ResponseTimeStats,
} from '@kesher/contracts';
import type { z } from 'zod';
import type {
  AnalyticsHealthSchema,
  FeedbackAllStatsSchema,
  KeywordDashboardSchema,
  KeywordListSchema,
  KeywordTrendsSchema,
  QueriesSchema,
  SalesAnalyticsSchema,
  SystemMetricsSchema,
  UsagePeriodSchema,
  UsageStatsSchema,
} from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import {
  dailyActivityQueries,
  type ActivityFigures,
} from '@kesher/projections/analytics/daily-activity/daily-activity.queries';
import { feedbackQueries, type FeedbackFigures } from '@kesher/projections/analytics/feedback/feedback.queries';
import type { KeywordSource } from '@kesher/projections/analytics/keywords/keywords.projection';
import { keywordQueries } from '@kesher/projections/analytics/keywords/keywords.queries';
import { queryLogQueries } from '@kesher/projections/analytics/queries/queries.queries';
import { referralQueries } from '@kesher/projections/analytics/referred-urls/referred-urls.queries';
import {
  responseTimeQueries,
  type LatencySummary,
} from '@kesher/projections/analytics/response-times/response-times.queries';
import { daysOf, lastDays, type DayRange, type OwnerScope } from '@kesher/projections/analytics/shared/owner-scope';
import { DomainError } from '../platform/commands/decider.js';
import { createAssistantDirectory } from './assistant-directory.js';

export interface AnalyticsServiceDeps {
  readDb: Queryable;
  clock: () => Date;
  /** How far each read model is (health, system metrics). */
  readModelPositions: () => Promise<Record<string, AllPosition>>;
  headPosition: () => Promise<AllPosition>;
  /** The analytics read models' names, as the health calls report them. */
  analyticsReadModels: readonly string[];
  /** When this process started (system metrics' uptime). */
  startedAt?: Date;
}

/** A read model this many positions behind the log makes the analytics "degraded". */
const DEGRADED_BEHIND = 10_000;

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
const percentOrNull = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

export function toResponseTimeStats(completed: LatencySummary, firstToken: LatencySummary): ResponseTimeStats {
  return {
    samples: completed.samples,
    current_ms: completed.avgMs,
    avg_ms: completed.avgMs,
    min_ms: completed.minMs,
    max_ms: completed.maxMs,
    p50_ms: completed.p50Ms,
    p90_ms: completed.p90Ms,
    p95_ms: completed.p95Ms,
    p99_ms: completed.p99Ms,
    first_token: {
      samples: firstToken.samples,
      avg_ms: firstToken.avgMs,
      min_ms: firstToken.minMs,
      max_ms: firstToken.maxMs,
      p50_ms: firstToken.p50Ms,
      p95_ms: firstToken.p95Ms,
    },
  };
}

export function toFeedbackStats(figures: FeedbackFigures): FeedbackStats {
  const total = figures.positive + figures.negative;
  return {
    positive: figures.positive,
    negative: figures.negative,
    total,
    satisfaction_rate: percentOrNull(figures.positive, total),
  };
}

const successRate = (figures: ActivityFigures) =>
  percentOrNull(figures.runsCompleted, figures.runsCompleted + figures.runsFailed + figures.runsExpired);

/**
 * The analytics use cases over the read models, shared by the REST routes and GraphQL: each takes the
 * scope it reads (the signed-in owner's, or an operator's all-owners scope) and answers the contracts'
 * DTOs. Nothing here counts over raw tables: every figure is a sum of per-day rows.
 */
export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const db = deps.readDb;
  const activity = dailyActivityQueries(db);
  const responseTimes = responseTimeQueries(db);
  const feedback = feedbackQueries(db);
  const keywords = keywordQueries(db);
  const referrals = referralQueries(db);
  const queryLog = queryLogQueries(db);
  const assistants = createAssistantDirectory(db);
  const startedAt = deps.startedAt ?? new Date();

  const range = (days: number): DayRange => lastDays(deps.clock(), days);
  const period = (days: number, r: DayRange) => ({ days, start_date: r.from, end_date: r.to });

  /** An assistant's internal id from its numeric one, within the scope; "not found" otherwise, as everywhere. */
  async function assistantIn(
    scope: OwnerScope,
    numericId: number | undefined,
  ): Promise<{ id: string; numericId: number; name: string } | null> {
    if (numericId === undefined) return null;
    const found = await assistants.byNumericId(scope, numericId);
    if (!found) throw new DomainError('not_found', messages.assistantNotFound);
    return found;
  }

  async function readModelHealth() {
    const [positions, head] = await Promise.all([deps.readModelPositions(), deps.headPosition()]);
    const models = deps.analyticsReadModels.map((name) => {
      const position = positions[name];
      const behind = position ? Math.max(0, Number(head.prepare - position.prepare)) : Number(head.prepare);
      return { name, behind_positions: behind, caught_up: behind === 0, known: Boolean(position) };
    });
    const degraded = models.some((model) => !model.known || model.behind_positions > DEGRADED_BEHIND);
    return {
      status: degraded ? ('degraded' as const) : ('healthy' as const),
      head,
      read_models: models.map(({ known: _known, ...model }) => model),
    };
  }

  async function keywordList(
    scope: OwnerScope,
    source: KeywordSource,
    days: number,
    limit: number,
    assistantNumericId?: number,
  ): Promise<z.infer<typeof KeywordListSchema>> {
    const assistant = await assistantIn(scope, assistantNumericId);
    const ranking = await keywords.top(scope, source, range(days), limit, assistant?.id);
    return {
      source,
      days,
      keywords: ranking.keywords.map((k) => ({
        keyword: k.label,
        count: k.count,
        percentage: percent(k.count, ranking.totalMentions),
      })),
      total_mentions: ranking.totalMentions,
    };
  }

  return {
    async dashboard(scope: OwnerScope, days: number): Promise<Dashboard> {
      const r = range(days);
      const [{ totals, perDay, perChannel, perAssistant }, people, times, likes, owned] = await Promise.all([
        activity.breakdown(scope, r),
        activity.people(scope, r),
        responseTimes.range(scope, r),
        feedback.totals(scope, r),
        assistants.count(scope),
      ]);
      const series = daysOf(r);
      return {
        period: period(days, r),
        overview: {
          total_conversations: totals.conversations,
          total_queries: totals.queries + totals.trackedQueries,
          total_answers: totals.answers,
          tracked_queries: totals.trackedQueries,
          users: people.active,
          new_users: people.new,
          active_assistants: perAssistant.filter((a) => a.assistantId !== '' && a.queries + a.trackedQueries > 0)
            .length,
          total_assistants: owned,
          success_rate: successRate(totals),
          failed_runs: totals.runsFailed,
          expired_runs: totals.runsExpired,
        },
        response_time: toResponseTimeStats(times.completed, times.firstToken),
        feedback: toFeedbackStats(likes),
        channels: perChannel.map((c) => ({
          channel: c.channel,
          conversations: c.conversations,
          queries: c.queries + c.trackedQueries,
        })),
        languages: { he: totals.queriesHe, en: totals.queriesEn, other: totals.queriesOther },
        trends: {
          daily_queries: series.map((date) => ({
            date,
            queries: (perDay.get(date)?.queries ?? 0) + (perDay.get(date)?.trackedQueries ?? 0),
          })),
          daily_response_times: series.map((date) => {
            const day = times.daily.get(date);
            return {
              date,
              samples: day?.samples ?? 0,
              avg_response_time: day?.avgMs ?? null,
              min_response_time: day?.minMs ?? null,
              max_response_time: day?.maxMs ?? null,
              p95_response_time: day?.p95Ms ?? null,
            };
          }),
          daily_conversations: series.map((date) => ({ date, conversations: perDay.get(date)?.conversations ?? 0 })),
        },
      };
    },

    async performance(scope: OwnerScope, assistantNumericId: number, days: number): Promise<AssistantPerformance> {
      const assistant = (await assistantIn(scope, assistantNumericId))!;
      const r = range(days);
      const [totals, perDay, times, likes, referred] = await Promise.all([
        activity.totals(scope, r, assistant.id),
        activity.perDay(scope, r, assistant.id),
        responseTimes.range(scope, r, assistant.id),
        feedback.totals(scope, r, assistant.id),
        referrals.ranking(scope, r, 1, assistant.id),
      ]);
      return {
        assistant: { id: assistant.numericId, name: assistant.name },
        period: period(days, r),
        conversations: totals.conversations,
        queries: totals.queries + totals.trackedQueries,
        answers: totals.answers,
        success_rate: successRate(totals),
        runs: { completed: totals.runsCompleted, failed: totals.runsFailed, expired: totals.runsExpired },
        tokens: {
          prompt: totals.promptTokens,
          completion: totals.completionTokens,
          total: totals.promptTokens + totals.completionTokens,
        },
        response_time: toResponseTimeStats(times.completed, times.firstToken),
        feedback: toFeedbackStats(likes),
        referrals: referred.total,
        daily: daysOf(r).map((date) => ({
          date,
          conversations: perDay.get(date)?.conversations ?? 0,
          queries: (perDay.get(date)?.queries ?? 0) + (perDay.get(date)?.trackedQueries ?? 0),
          avg_response_time: times.daily.get(date)?.avgMs ?? null,
        })),
      };
    },

    async queries(
      scope: OwnerScope,
      options: { limit: number; successOnly: boolean; assistantNumericId?: number },
    ): Promise<z.infer<typeof QueriesSchema>> {
      const assistant = await assistantIn(scope, options.assistantNumericId);
      const rows = await queryLog.recent(scope, {
        limit: options.limit,
        successOnly: options.successOnly,
        assistantId: assistant?.id,
      });
      const names = await assistants.byIds(rows.flatMap((row) => (row.assistantId ? [row.assistantId] : [])));
      return {
        queries: rows.map((row) => {
          const named = row.assistantId ? names.get(row.assistantId) : undefined;
          return {
            id: row.id,
            query: row.query,
            assistant_id: named?.numericId ?? null,
            assistant_name: named?.name ?? null,
            thread_id: row.threadId,
            channel: row.channel,
            source: row.source,
            status: row.status,
            success: row.status === 'pending' ? null : row.status === 'success',
            response_time_ms: row.responseTimeMs === null ? null : Math.round(row.responseTimeMs),
            created_at: row.createdAt.toISOString(),
          };
        }),
        count: rows.length,
        limit: options.limit,
      };
    },

    async usageStats(
      scope: OwnerScope,
      usagePeriod: z.infer<typeof UsagePeriodSchema>,
    ): Promise<z.infer<typeof UsageStatsSchema>> {
      const days = usagePeriodDays[usagePeriod];
      const r = range(days);
      const { totals, perDay, perChannel, perAssistant } = await activity.breakdown(scope, r);
      const names = await assistants.byIds(perAssistant.map((a) => a.assistantId).filter(Boolean));
      return {
        period: usagePeriod,
        start_date: r.from,
        end_date: r.to,
        days,
        queries: totals.queries + totals.trackedQueries,
        conversations: totals.conversations,
        answers: totals.answers,
        tracked_queries: totals.trackedQueries,
        tokens: {
          prompt: totals.promptTokens,
          completion: totals.completionTokens,
          total: totals.promptTokens + totals.completionTokens,
        },
        active_assistants: perAssistant.filter((a) => a.assistantId !== '' && a.queries + a.trackedQueries > 0).length,
        by_assistant: perAssistant.map((a) => ({
          assistant_id: names.get(a.assistantId)?.numericId ?? null,
          assistant_name: names.get(a.assistantId)?.name ?? null,
          queries: a.queries + a.trackedQueries,
          conversations: a.conversations,
        })),
        by_channel: perChannel.map((c) => ({
          channel: c.channel,
          conversations: c.conversations,
          queries: c.queries + c.trackedQueries,
        })),
        daily: daysOf(r).map((date) => ({
          date,
          queries: (perDay.get(date)?.queries ?? 0) + (perDay.get(date)?.trackedQueries ?? 0),
          conversations: perDay.get(date)?.conversations ?? 0,
        })),
      };
    },

    async salesAnalytics(
      scope: OwnerScope,
      days: number,
      limit: number,
    ): Promise<z.infer<typeof SalesAnalyticsSchema>> {
      const ranking = await referrals.ranking(scope, range(days), limit);
      return {
        top_referred_urls: ranking.top.map((row) => ({ ...row, percentage: percent(row.count, ranking.total) })),
        total_referrals: ranking.total,
        unique_urls: ranking.uniqueUrls,
        days_analyzed: days,
        by_type: ranking.byType.map((row) => ({
          type: row.type,
          count: row.count,
          percentage: percent(row.count, ranking.total),
        })),
      };
    },

    async feedbackStats(
      scope: OwnerScope,
      days: number,
      assistantNumericId?: number,
    ): Promise<z.infer<typeof FeedbackAllStatsSchema>> {
      const assistant = await assistantIn(scope, assistantNumericId);
      const figures = await feedback.totals(scope, range(days), assistant?.id);
      return { ...toFeedbackStats(figures), days, with_comments: figures.withComments };
    },

    keywordList,

    async keywordTrends(
      scope: OwnerScope,
      source: KeywordSource,
      days: number,
      limit: number,
      assistantNumericId?: number,
    ): Promise<z.infer<typeof KeywordTrendsSchema>> {
      const assistant = await assistantIn(scope, assistantNumericId);
      const r = range(days);
      const dates = daysOf(r);
      const trends = await keywords.trends(scope, source, r, limit, assistant?.id);
      const half = Math.floor(dates.length / 2);
      return {
        source,
        days,
        dates,
        trends: trends.map((trend) => {
          const counts = dates.map((date) => trend.perDay.get(date) ?? 0);
          const before = counts.slice(0, half).reduce((a, b) => a + b, 0);
          const after = counts.slice(dates.length - half).reduce((a, b) => a + b, 0);
          return {
            keyword: trend.label,
            total: trend.count,
            counts,
            change_percent: before > 0 ? Math.round(((after - before) / before) * 1000) / 10 : null,
          };
        }),
      };
    },

    async keywordDashboard(
      scope: OwnerScope,
      days: number,
      limit: number,
      assistantNumericId?: number,
    ): Promise<z.infer<typeof KeywordDashboardSchema>> {
      const [customer, assistant] = await Promise.all([
        keywordList(scope, 'customer', days, limit, assistantNumericId),
        keywordList(scope, 'assistant', days, limit, assistantNumericId),
      ]);
      return { days, customer_keywords: customer, assistant_keywords: assistant };
    },

    async health(names?: readonly string[]): Promise<z.infer<typeof AnalyticsHealthSchema>> {
      const report = await readModelHealth();
      const models = names ? report.read_models.filter((model) => names.includes(model.name)) : report.read_models;
      const degraded = names
        ? models.length < names.length || models.some((model) => model.behind_positions > DEGRADED_BEHIND)
        : report.status === 'degraded';
      return { status: degraded ? 'degraded' : 'healthy', read_models: models, checked_at: deps.clock().toISOString() };
    },

    /** The process figures are an operator's: an owner sees whether analytics are current, not the server's memory. */
    async systemMetrics(operator: boolean): Promise<z.infer<typeof SystemMetricsSchema>> {
      const report = await readModelHealth();
      const memory = process.memoryUsage();
      const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
      return {
        status: report.status,
        uptime_seconds: Math.max(0, Math.round((deps.clock().getTime() - startedAt.getTime()) / 1000)),
        event_log: { head_position: `${report.head.commit}:${report.head.prepare}` },
        read_models: report.read_models,
        generated_at: deps.clock().toISOString(),
        process: operator
          ? {
              rss_mb: mb(memory.rss),
              heap_used_mb: mb(memory.heapUsed),
              load_average: loadavg(),
              node_version: process.version,
            }
          : null,
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
