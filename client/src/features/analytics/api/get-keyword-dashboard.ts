import { analyticsDisplay, KeywordDashboardSchema, successEnvelope } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const Envelope = successEnvelope(KeywordDashboardSchema);

/** GET /keyword-analytics/dashboard?days=&limit=: the page shows the top 5 of each side. */
export const getKeywordDashboard = async (days: number) =>
  (await api.get(`/keyword-analytics/dashboard?days=${days}&limit=${analyticsDisplay.topKeywords}`, Envelope)).data;

export const keywordDashboardQuery = (days: number) =>
  queryOptions({
    queryKey: ['analytics', 'keywords', days],
    queryFn: () => getKeywordDashboard(days),
    refetchInterval: analyticsDisplay.autoRefreshMs,
  });

export const useKeywordDashboard = (days: number) => useQuery(keywordDashboardQuery(days));
