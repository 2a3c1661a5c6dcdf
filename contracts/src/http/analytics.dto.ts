import { z } from 'zod';
import { LimitKindSchema } from '../events/analytics.events.js';
import { ANALYTICS_MAX_DAYS, analyticsDefaults, LimitStateSchema, ReferralTypeSchema } from '../rules/analytics.js';
import { chatMessages } from '../rules/chat.js';
import { PlanFeaturesSchema, PlanLimitsSchema, PlanTierSchema } from '../rules/plans.js';

/*
 * The analytics, keyword-analytics and limits calls (spec part 2 §7). Every analytics answer is the
 * envelope `{ status: 'success', data }` (the client says "Invalid response format" otherwise); the new
 * limits calls use it too. Days are calendar days in UTC ending today: `days=1` is today, `days=7` today
 * and the six days before it.
 */

/** `{ status: 'success', data }` around a call's figures. */
export const successEnvelope = <Data extends z.ZodType>(data: Data) => z.object({ status: z.literal('success'), data });

const Count = z.number().int().nonnegative();
const Ms = z.number().nonnegative();
const Percent = z.number().min(0).max(100);
export const AnalyticsDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD (UTC)');
const Iso = z.string().describe('ISO 8601');

const days = (fallback: number) => z.coerce.number().int().min(1).max(ANALYTICS_MAX_DAYS).default(fallback);
/** The numeric assistant id of the dashboard (as a query parameter). */
const AssistantIdQuery = z.coerce
  .number({ error: chatMessages.invalidAssistantId })
  .int(chatMessages.invalidAssistantId)
  .positive(chatMessages.invalidAssistantId)
  .max(2_147_483_647)
  .optional();

export const PeriodSchema = z.object({ days: Count, start_date: AnalyticsDateSchema, end_date: AnalyticsDateSchema });

/** Response times over a range: the run's request → its completion, and → the first words of the answer. */
export const ResponseTimeStatsSchema = z.object({
  samples: Count,
  /** What the gauge shows: the range's average (ms), null without completed answers. */
  current_ms: Ms.nullable(),
  avg_ms: Ms.nullable(),
  min_ms: Ms.nullable(),
  max_ms: Ms.nullable(),
  /** Percentiles from a per-day histogram (buckets 5 % apart), so within 5 % of the exact figure. */
  p50_ms: Ms.nullable(),
  p90_ms: Ms.nullable(),
  p95_ms: Ms.nullable(),
  p99_ms: Ms.nullable(),
  first_token: z.object({
    samples: Count,
    avg_ms: Ms.nullable(),
    min_ms: Ms.nullable(),
    max_ms: Ms.nullable(),
    p50_ms: Ms.nullable(),
    p95_ms: Ms.nullable(),
  }),
});
export type ResponseTimeStats = z.infer<typeof ResponseTimeStatsSchema>;

/** Likes and dislikes on answers (a changed rating counts once, as its latest). */
export const FeedbackStatsSchema = z.object({
  positive: Count,
  negative: Count,
  total: Count,
  /** Share of likes in percent (one decimal), null without feedback; good from 70, fair from 50. */
  satisfaction_rate: Percent.nullable(),
});
export type FeedbackStats = z.infer<typeof FeedbackStatsSchema>;

export const DailyQueriesSchema = z.object({ date: AnalyticsDateSchema, queries: Count });
export const DailyConversationsSchema = z.object({ date: AnalyticsDateSchema, conversations: Count });
export const DailyResponseTimeSchema = z.object({
  date: AnalyticsDateSchema,
  samples: Count,
  avg_response_time: Ms.nullable(),
  min_response_time: Ms.nullable(),
  max_response_time: Ms.nullable(),
  p95_response_time: Ms.nullable(),
});
export const ChannelCountSchema = z.object({ channel: z.string(), conversations: Count, queries: Count });

export const AnalyticsOverviewSchema = z.object({
  total_conversations: Count,
  /** Visitors' and the owner's messages to the assistants, plus tracked queries. */
  total_queries: Count,
  total_answers: Count,
  tracked_queries: Count,
  /** People who wrote in the range (the owner, and each visitor session). */
  users: Count,
  /** Of those, the ones who wrote for the first time in the range. */
  new_users: Count,
  active_assistants: Count,
  total_assistants: Count,
  /** Answered runs among the runs that ended, in percent; null when none ended. */
  success_rate: Percent.nullable(),
  failed_runs: Count,
  expired_runs: Count,
});

/** GET /analytics/dashboard?days= (default 7). */
export const DashboardQuerySchema = z.object({ days: days(analyticsDefaults.dashboardDays) });
export const DashboardSchema = z.object({
  period: PeriodSchema,
  overview: AnalyticsOverviewSchema,
  response_time: ResponseTimeStatsSchema,
  feedback: FeedbackStatsSchema,
  channels: z.array(ChannelCountSchema),
  languages: z.object({ he: Count, en: Count, other: Count }),
  trends: z.object({
    daily_queries: z.array(DailyQueriesSchema),
    daily_response_times: z.array(DailyResponseTimeSchema),
    daily_conversations: z.array(DailyConversationsSchema),
  }),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

/** GET /analytics/assistant/{id}/performance?days= (default 30). */
export const PerformanceQuerySchema = z.object({ days: days(analyticsDefaults.performanceDays) });
export const AssistantPerformanceSchema = z.object({
  assistant: z.object({ id: z.number().int(), name: z.string() }),
  period: PeriodSchema,
  conversations: Count,
  queries: Count,
  answers: Count,
  success_rate: Percent.nullable(),
  runs: z.object({ completed: Count, failed: Count, expired: Count }),
  tokens: z.object({ prompt: Count, completion: Count, total: Count }),
  response_time: ResponseTimeStatsSchema,
  feedback: FeedbackStatsSchema,
  referrals: Count,
  daily: z.array(
    z.object({ date: AnalyticsDateSchema, conversations: Count, queries: Count, avg_response_time: Ms.nullable() }),
  ),
});
export type AssistantPerformance = z.infer<typeof AssistantPerformanceSchema>;

/** POST /analytics/track-query. */
export const TrackQueryBodySchema = z.object({
  query: z.string().trim().min(1, 'Query cannot be empty').max(10_000, 'Query is too long (max 10000 characters)'),
  assistant_id: z.coerce
    .number({ error: chatMessages.invalidAssistantId })
    .int(chatMessages.invalidAssistantId)
    .positive(chatMessages.invalidAssistantId)
    .max(2_147_483_647)
    .optional(),
  response_time_ms: z
    .number()
    .nonnegative()
    .max(24 * 3600 * 1000)
    .optional(),
  success: z.boolean().default(true),
  source: z.string().trim().min(1).max(100).default('api'),
});
export const TrackQueryResultSchema = z.object({ query_id: z.string(), tracked_at: Iso });

/** GET /analytics/queries?limit=&success_only=&assistant_id= (limit default 50). */
export const QueriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(analyticsDefaults.queriesLimit),
  success_only: z.stringbool().default(false),
  assistant_id: AssistantIdQuery,
});
export const QueryRecordSchema = z.object({
  id: z.string(),
  query: z.string(),
  assistant_id: z.number().int().nullable(),
  assistant_name: z.string().nullable(),
  thread_id: z.string().nullable(),
  channel: z.string().nullable(),
  /** `chat`: a message to an assistant; `tracked`: reported through POST /analytics/track-query. */
  source: z.string(),
  status: z.enum(['pending', 'success', 'failed', 'expired']),
  success: z.boolean().nullable(),
  response_time_ms: Ms.nullable(),
  created_at: Iso,
});
export const QueriesSchema = z.object({ queries: z.array(QueryRecordSchema), count: Count, limit: Count });

/** GET /analytics/usage-stats?period= (default week). */
export const UsagePeriodSchema = z.enum(['day', 'week', 'month', 'quarter', 'year']);
export const usagePeriodDays: Record<z.infer<typeof UsagePeriodSchema>, number> = {
  day: 1,
  week: 7,
  month: 30,
  quarter: 90,
  year: 365,
};
export const UsageStatsQuerySchema = z.object({ period: UsagePeriodSchema.default(analyticsDefaults.usagePeriod) });
export const UsageStatsSchema = z.object({
  period: UsagePeriodSchema,
  start_date: AnalyticsDateSchema,
  end_date: AnalyticsDateSchema,
  days: Count,
  queries: Count,
  conversations: Count,
  answers: Count,
  tracked_queries: Count,
  tokens: z.object({ prompt: Count, completion: Count, total: Count }),
  active_assistants: Count,
  by_assistant: z.array(
    z.object({
      assistant_id: z.number().int().nullable(),
      assistant_name: z.string().nullable(),
      queries: Count,
      conversations: Count,
    }),
  ),
  by_channel: z.array(ChannelCountSchema),
  daily: z.array(z.object({ date: AnalyticsDateSchema, queries: Count, conversations: Count })),
});

/** GET /analytics/sales-analytics?days= (default 30). */
export const SalesAnalyticsQuerySchema = z.object({
  days: days(analyticsDefaults.salesDays),
  limit: z.coerce.number().int().min(1).max(100).default(analyticsDefaults.referredUrlsLimit),
});
export const ReferredUrlSchema = z.object({
  url: z.string(),
  type: ReferralTypeSchema,
  count: Count,
  percentage: Percent,
});
export const SalesAnalyticsSchema = z.object({
  top_referred_urls: z.array(ReferredUrlSchema),
  total_referrals: Count,
  unique_urls: Count,
  days_analyzed: Count,
  by_type: z.array(z.object({ type: ReferralTypeSchema, count: Count, percentage: Percent })),
});

/** How far a read model is behind the log. */
export const ReadModelHealthSchema = z.object({ name: z.string(), behind_positions: Count, caught_up: z.boolean() });
/** GET /analytics/health and /keyword-analytics/health. */
export const AnalyticsHealthSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  read_models: z.array(ReadModelHealthSchema),
  checked_at: Iso,
});
/** GET /analytics/system-metrics: the process figures are an operator's only (null for owners). */
export const SystemMetricsSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  uptime_seconds: z.number().nonnegative(),
  event_log: z.object({ head_position: z.string() }),
  read_models: z.array(ReadModelHealthSchema),
  generated_at: Iso,
  process: z
    .object({
      rss_mb: z.number(),
      heap_used_mb: z.number(),
      load_average: z.array(z.number()),
      node_version: z.string(),
    })
    .nullable(),
});

/** GET /feedback/all-stats?days= (default 7). */
export const FeedbackStatsQuerySchema = z.object({
  days: days(analyticsDefaults.feedbackDays),
  assistant_id: AssistantIdQuery,
});
export const FeedbackAllStatsSchema = FeedbackStatsSchema.extend({ days: Count, with_comments: Count });

/** /keyword-analytics/customer-keywords and /assistant-keywords (days default 30, limit default 10). */
export const KeywordSourceSchema = z.enum(['customer', 'assistant']);
export const KeywordQuerySchema = z.object({
  days: days(analyticsDefaults.keywordDays),
  limit: z.coerce.number().int().min(1).max(100).default(analyticsDefaults.keywordLimit),
  assistant_id: AssistantIdQuery,
});
export const KeywordCountSchema = z.object({ keyword: z.string(), count: Count, percentage: Percent });
export const KeywordListSchema = z.object({
  source: KeywordSourceSchema,
  days: Count,
  keywords: z.array(KeywordCountSchema),
  /** Every counted keyword mention in the range (the listed ones and the rest). */
  total_mentions: Count,
});
/** /keyword-analytics/keyword-trends?days= */
export const KeywordTrendsQuerySchema = KeywordQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(20).default(5),
  source: KeywordSourceSchema.default('customer'),
});
export const KeywordTrendsSchema = z.object({
  source: KeywordSourceSchema,
  days: Count,
  dates: z.array(AnalyticsDateSchema),
  trends: z.array(
    z.object({
      keyword: z.string(),
      total: Count,
      /** One count per entry of `dates`. */
      counts: z.array(Count),
      /** The range's second half against its first, in percent; null when the first half had none. */
      change_percent: z.number().nullable(),
    }),
  ),
});
/** /keyword-analytics/dashboard?days= */
export const KeywordDashboardSchema = z.object({
  days: Count,
  customer_keywords: KeywordListSchema,
  assistant_keywords: KeywordListSchema,
});

/** One figure against its limit. */
export const LimitFigureSchema = z.object({
  used: z.number().nonnegative(),
  limit: z.number().nonnegative(),
  remaining: z.number().nonnegative(),
  percentage: z.number().nonnegative(),
  state: LimitStateSchema,
});
export const LimitsStatusSchema = z.object({
  tier: PlanTierSchema,
  period_start: Iso,
  period_end: Iso,
  /** Nothing is used beyond its limit (a limit just reached still counts as within). */
  within_limits: z.boolean(),
  limits_summary: z.object({
    chat: z.object({ total_messages: LimitFigureSchema }),
    assistants: z.object({ total: LimitFigureSchema }),
    storage: z.object({ used_mb: LimitFigureSchema }),
  }),
  warnings: z.array(z.object({ type: LimitKindSchema, state: LimitStateSchema, message: z.string() })),
  recommendations: z.array(z.object({ type: LimitKindSchema, message: z.string() })),
});
export type LimitsStatus = z.infer<typeof LimitsStatusSchema>;
export const QuickStatsSchema = z.object({
  total_assistants: Count,
  total_conversations: Count,
  storage_used_mb: z.number().nonnegative(),
  messages_this_month: Count,
  violations_last_7_days: Count,
});
/** GET /limits/analytics: the analytics page's usage-limits card. */
export const LimitsAnalyticsSchema = z.object({
  limits_status: LimitsStatusSchema,
  quick_stats: QuickStatsSchema,
  violations_by_type: z.array(z.object({ type: LimitKindSchema, count: Count })),
});
/** GET /limits/limits: the plan in force. */
export const PlanLimitsViewSchema = z.object({
  tier: PlanTierSchema,
  plan_name: z.string(),
  limits: PlanLimitsSchema,
  features: PlanFeaturesSchema,
  period_start: Iso,
  period_end: Iso,
});

/** POST /limits/check: would one more (or `amount` more) be allowed now? Nothing is recorded. */
export const CheckableLimitSchema = z.enum(['monthly_messages', 'assistants', 'files', 'storage']);
export const LimitCheckBodySchema = z.object({
  limit_type: CheckableLimitSchema,
  /** How many more (bytes for `storage`). */
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).default(1),
  /** `files` counts per assistant: the assistant's numeric id. */
  assistant_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const LimitCheckSchema = z.object({
  limit_type: CheckableLimitSchema,
  allowed: z.boolean(),
  used: z.number().nonnegative(),
  limit: z.number().nonnegative(),
  remaining: z.number().nonnegative(),
  requested: z.number().nonnegative(),
  /** The text the refusal would carry; null when allowed. */
  message: z.string().nullable(),
});

/** GET /limits/usage/history?days= (default 30). */
export const UsageHistoryQuerySchema = z.object({ days: days(analyticsDefaults.usageHistoryDays) });
const UsageFigures = { messages: Count, conversations: Count, answers: Count, tokens: Count, violations: Count };
export const UsageHistorySchema = z.object({
  days: Count,
  history: z.array(z.object({ date: AnalyticsDateSchema, ...UsageFigures })),
  totals: z.object(UsageFigures),
});

/** GET /limits/violations?days=&violation_type= (days default 7). */
export const ViolationsQuerySchema = z.object({
  days: days(analyticsDefaults.violationDays),
  violation_type: LimitKindSchema.optional(),
});
export const ViolationSchema = z.object({
  id: z.string(),
  type: LimitKindSchema,
  /** The text the refusal carried. */
  message: z.string(),
  limit: z.number().nonnegative(),
  used: z.number().nonnegative(),
  requested: z.number().nonnegative().nullable(),
  assistant_id: z.number().int().nullable(),
  assistant_name: z.string().nullable(),
  refused: z.enum(['owner', 'visitor']),
  occurred_at: Iso,
});
export const ViolationsSchema = z.object({
  days: Count,
  /** The newest 500 at most; `total` counts them all. */
  violations: z.array(ViolationSchema),
  total: Count,
  by_type: z.array(z.object({ type: LimitKindSchema, count: Count })),
});

/** GET /limits/trends?period_type=&periods= (default weekly, 4 periods). */
export const TrendsQuerySchema = z.object({
  period_type: z.enum(['daily', 'weekly', 'monthly']).default(analyticsDefaults.trendsPeriodType),
  periods: z.coerce.number().int().min(1).max(52).default(analyticsDefaults.trendsPeriods),
});
export const LimitTrendsSchema = z.object({
  period_type: z.enum(['daily', 'weekly', 'monthly']),
  /** Oldest first; the last is the current (partial) period. Weeks start on Monday (UTC). */
  periods: z.array(
    z.object({
      label: z.string(),
      start_date: AnalyticsDateSchema,
      end_date: AnalyticsDateSchema,
      ...UsageFigures,
      /** Messages against the period before, in percent; null when that one had none. */
      change_percent: z.number().nullable(),
    }),
  ),
});
