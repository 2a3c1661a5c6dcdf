import { z } from 'zod';

/** The analytics page's ranges (spec part 2 §2, §9): last 24 hours (1), 7, 30 and 90 days. */
export const analyticsRanges = [1, 7, 30, 90] as const;

/** Days every range-taking call may ask for: a calendar day (UTC) up to a year and a half back. */
export const ANALYTICS_MAX_DAYS = 548;

/** The defaults of the analytics, keyword and limits calls (spec part 2 §9). */
export const analyticsDefaults = {
  dashboardDays: 7,
  performanceDays: 30,
  keywordDays: 30,
  salesDays: 30,
  usageHistoryDays: 30,
  violationDays: 7,
  feedbackDays: 7,
  keywordLimit: 10,
  queriesLimit: 50,
  referredUrlsLimit: 10,
  trendsPeriodType: 'weekly',
  trendsPeriods: 4,
  usagePeriod: 'week',
} as const;

/** What the analytics page shows (spec part 2 §9): its lists, gauges, bands and timers. */
export const analyticsDisplay = {
  autoRefreshMs: 5 * 60 * 1000,
  topKeywords: 5,
  topReferredUrls: 10,
  recentChats: 5,
  urlDisplayChars: 60,
  /** The average response-time gauge: its maximum and the colour bands' upper bounds (ms). */
  responseGauge: { maxMs: 5000, bandsMs: [200, 500, 1000] },
  /** Feedback satisfaction: good from 70 %, fair from 50 %. */
  satisfaction: { goodPercent: 70, fairPercent: 50 },
  /** The usage-limits card: colours change at these shares of a limit. */
  usageThresholdsPercent: [50, 75, 90],
  /** The usage card's monthly figures (reset on the 1st): queries, responses as a share of queries, tokens, storage. */
  usageCard: {
    monthlyQueries: 20_000,
    responsesShare: 0.85,
    tokensPerQuery: 150,
    monthlyTokens: 1_000_000,
    storageMb: 200,
  },
  /** The crawl-progress modal closes this long after the crawl completes. */
  crawlCompleteCloseMs: 3000,
} as const;

/** The analytics page's error texts (spec part 2 §8); each is shown with a Retry. */
export const analyticsMessages = {
  loginRequired: 'Please log in to view analytics',
  failedToLoad: (detail: string) => `Failed to load analytics data: ${detail}`,
  limitsFailed: 'Failed to load limits data',
  keywordsFailed: 'Failed to load keyword analytics',
  salesFailed: 'Error loading sales analytics',
  invalidResponse: 'Invalid response format',
  noAnalytics: 'No analytics data available',
  noLimits: 'No limits data available',
} as const;

/** Where a referred URL leads (spec part 2 §3 Sales analytics). */
export const ReferralTypeSchema = z.enum(['pricing', 'sales', 'support', 'documentation', 'company', 'content']);
export type ReferralType = z.infer<typeof ReferralTypeSchema>;

/**
 * A figure measured against a limit, in the usage card's bands: `ok` below 50 %, `notice` from 50 %,
 * `warning` from 75 %, `critical` from 90 %, `reached` at the limit or past it (nothing more is allowed).
 */
export const LimitStateSchema = z.enum(['ok', 'notice', 'warning', 'critical', 'reached']);
export type LimitState = z.infer<typeof LimitStateSchema>;

export function limitState(used: number, limit: number): LimitState {
  if (limit <= 0) return 'reached';
  const percent = (used / limit) * 100;
  const [notice, warning, critical] = analyticsDisplay.usageThresholdsPercent;
  if (percent >= 100) return 'reached';
  if (percent >= critical) return 'critical';
  if (percent >= warning) return 'warning';
  if (percent >= notice) return 'notice';
  return 'ok';
}
