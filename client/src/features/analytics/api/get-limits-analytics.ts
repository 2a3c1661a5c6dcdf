import { analyticsDisplay, LimitsAnalyticsSchema, successEnvelope } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const Envelope = successEnvelope(LimitsAnalyticsSchema);

/** GET /limits/analytics: the usage-limits card's figures (the month so far; no range). */
export const getLimitsAnalytics = async () => (await api.get('/limits/analytics', Envelope)).data;

export const limitsAnalyticsQuery = () =>
  queryOptions({
    queryKey: ['analytics', 'limits'],
    queryFn: getLimitsAnalytics,
    refetchInterval: analyticsDisplay.autoRefreshMs,
  });

export const useLimitsAnalytics = () => useQuery(limitsAnalyticsQuery());
