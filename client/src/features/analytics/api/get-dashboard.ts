import { analyticsDisplay, DashboardSchema, successEnvelope } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const Envelope = successEnvelope(DashboardSchema);

/** GET /analytics/dashboard?days=: overview, response time, feedback and the daily trends. */
export const getDashboard = async (days: number) => (await api.get(`/analytics/dashboard?days=${days}`, Envelope)).data;

export const dashboardQuery = (days: number) =>
  queryOptions({
    queryKey: ['analytics', 'dashboard', days],
    queryFn: () => getDashboard(days),
    refetchInterval: analyticsDisplay.autoRefreshMs,
  });

export const useDashboard = (days: number) => useQuery(dashboardQuery(days));
