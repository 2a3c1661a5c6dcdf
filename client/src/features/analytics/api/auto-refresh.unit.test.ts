import { describe, expect, it } from 'vitest';
import { dashboardQuery } from './get-dashboard';
import { keywordDashboardQuery } from './get-keyword-dashboard';
import { limitsAnalyticsQuery } from './get-limits-analytics';
import { salesAnalyticsQuery } from './get-sales-analytics';

describe('the analytics calls', () => {
  it('refresh every 5 minutes and are keyed by their range', () => {
    for (const query of [dashboardQuery(7), keywordDashboardQuery(7), limitsAnalyticsQuery(), salesAnalyticsQuery(7)]) {
      expect(query.refetchInterval).toBe(5 * 60 * 1000);
      expect(query.queryKey[0]).toBe('analytics'); // Refresh refetches everything under this key
    }
    expect(dashboardQuery(30).queryKey).not.toEqual(dashboardQuery(7).queryKey);
  });
});
