import type { Config } from '../../platform/config/config.js';

/**
 * How long Kesher keeps what (spec part 2 "Privacy": conversation history 90 days after closure, payment
 * records 7 years, analytics 24 months, security logs 12 months, inactive accounts over 24 months may be
 * deleted). Every period is a setting (RETENTION_* in config.ts) whose default is the spec's.
 */
export interface RetentionPolicy {
  conversationDays: number;
  analyticsMonths: number;
  securityLogMonths: number;
  paymentYears: number;
  inactiveAccountMonths: number;
  /** Between the inactivity warning mail and the erasure. */
  inactiveNoticeDays: number;
}

type RetentionSettings = Pick<
  Config,
  | 'RETENTION_CONVERSATION_DAYS'
  | 'RETENTION_ANALYTICS_MONTHS'
  | 'RETENTION_SECURITY_LOG_MONTHS'
  | 'RETENTION_PAYMENT_YEARS'
  | 'RETENTION_INACTIVE_ACCOUNT_MONTHS'
  | 'RETENTION_INACTIVE_NOTICE_DAYS'
>;

export const retentionPolicyOf = (config: RetentionSettings): RetentionPolicy => ({
  conversationDays: config.RETENTION_CONVERSATION_DAYS,
  analyticsMonths: config.RETENTION_ANALYTICS_MONTHS,
  securityLogMonths: config.RETENTION_SECURITY_LOG_MONTHS,
  paymentYears: config.RETENTION_PAYMENT_YEARS,
  inactiveAccountMonths: config.RETENTION_INACTIVE_ACCOUNT_MONTHS,
  inactiveNoticeDays: config.RETENTION_INACTIVE_NOTICE_DAYS,
});

const DAY_MS = 24 * 3600 * 1000;

export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** Calendar months back (UTC), so "24 months" is the same day two years ago, whatever the months' lengths. */
export function monthsBefore(now: Date, months: number): Date {
  const at = new Date(now);
  at.setUTCMonth(at.getUTCMonth() - months);
  return at;
}

/** The day a conversation whose last message is `lastMessageAt` is erased (Chat History's "kept until …"). */
export const conversationKeptUntil = (lastMessageAt: Date, policy: Pick<RetentionPolicy, 'conversationDays'>) =>
  new Date(lastMessageAt.getTime() + policy.conversationDays * DAY_MS);
