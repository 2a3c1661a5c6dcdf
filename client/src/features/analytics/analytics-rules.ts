import { analyticsDisplay, limitState, type LimitState } from '@kesher/contracts';

/** The page's own rules (spec part 2 §9): gauge bands, satisfaction bands, the usage card, URL truncation. */

export type GaugeBand = 'excellent' | 'good' | 'fair' | 'slow';
/** Colours change under 200, 500 and 1,000 ms. */
export function gaugeBand(ms: number): GaugeBand {
  const [excellent, good, fair] = analyticsDisplay.responseGauge.bandsMs;
  if (ms < excellent) return 'excellent';
  if (ms < good) return 'good';
  if (ms < fair) return 'fair';
  return 'slow';
}

export type SatisfactionBand = 'good' | 'fair' | 'poor';
/** 70 % or more is good, 50 % or more fair. */
export function satisfactionBand(rate: number): SatisfactionBand {
  if (rate >= analyticsDisplay.satisfaction.goodPercent) return 'good';
  if (rate >= analyticsDisplay.satisfaction.fairPercent) return 'fair';
  return 'poor';
}

/** URLs longer than 60 characters are cut with an ellipsis (the whole address stays in the link). */
export function truncateUrl(url: string, max: number = analyticsDisplay.urlDisplayChars): string {
  const chars = Array.from(url);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : url;
}

/** Min, max and average of a chart's values, ignoring days without a value. */
export function seriesStats(values: readonly (number | null)[]): { min: number; max: number; avg: number } | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  return {
    min: Math.min(...present),
    max: Math.max(...present),
    avg: present.reduce((a, b) => a + b, 0) / present.length,
  };
}

export interface UsageRow {
  key: 'queries' | 'responses' | 'tokens' | 'storage';
  used: number;
  limit: number;
  percent: number;
  state: LimitState;
}

/** What the owner's plan allows a month (from the limits status): the usage card measures against it. */
export interface PlanAllowance {
  monthlyMessages: number;
  storageMb: number;
}

/**
 * The usage card's four monthly rows (reset on the 1st), against the owner's plan: queries of the plan's
 * monthly messages; responses shown as 85 % of the queries (of 85 % of the limit); tokens estimated at
 * 150 a query (of 150 for each message the plan allows); storage of the plan's storage. The spec's fixed
 * figures (20,000 queries, 1,000,000 tokens, 200 MB) told a free owner, refused at 100 messages, that
 * they had used "100 of 20,000" (issue 22 item 15).
 */
export function usageRows(messagesThisMonth: number, storageUsedMb: number, plan: PlanAllowance): UsageRow[] {
  const card = analyticsDisplay.usageCard;
  const row = (key: UsageRow['key'], used: number, limit: number): UsageRow => ({
    key,
    used,
    limit,
    percent: limit > 0 ? Math.min(100, (used / limit) * 100) : 100,
    state: limitState(used, limit),
  });
  return [
    row('queries', messagesThisMonth, plan.monthlyMessages),
    row(
      'responses',
      Math.round(messagesThisMonth * card.responsesShare),
      Math.round(plan.monthlyMessages * card.responsesShare),
    ),
    row('tokens', messagesThisMonth * card.tokensPerQuery, plan.monthlyMessages * card.tokensPerQuery),
    row('storage', Math.round(storageUsedMb * 10) / 10, plan.storageMb),
  ];
}
