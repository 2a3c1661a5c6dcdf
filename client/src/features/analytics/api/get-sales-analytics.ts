import { analyticsDisplay, SalesAnalyticsSchema, successEnvelope } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const Envelope = successEnvelope(SalesAnalyticsSchema);

/** GET /analytics/sales-analytics?days=&limit=: the top 10 referred URLs with their types. */
export const getSalesAnalytics = async (days: number) =>
  (await api.get(`/analytics/sales-analytics?days=${days}&limit=${analyticsDisplay.topReferredUrls}`, Envelope)).data;

export const salesAnalyticsQuery = (days: number) =>
  queryOptions({
    queryKey: ['analytics', 'sales', days],
    queryFn: () => getSalesAnalytics(days),
    refetchInterval: analyticsDisplay.autoRefreshMs,
  });

export const useSalesAnalytics = (days: number) => useQuery(salesAnalyticsQuery(days));
