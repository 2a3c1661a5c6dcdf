import { analyticsDisplay, CuratedAnalyticsSchema, successEnvelope } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const Envelope = successEnvelope(CuratedAnalyticsSchema);

/**
 * GET /analytics/curated-answers (issue 26 item 4): answers from the Q&A, the most used Q&A and visitors'
 * questions answered with no source, over `days` days, of every assistant or of one. Under the 'analytics'
 * key, so the analytics page's Refresh and auto-refresh include it; adding a Q&A invalidates it.
 */
export const curatedAnalyticsQuery = (days: number, assistantId?: number) =>
  queryOptions({
    queryKey: ['analytics', 'curated-answers', days, assistantId ?? 'all'],
    queryFn: async () =>
      (
        await api.get(
          `/analytics/curated-answers?days=${days}${assistantId === undefined ? '' : `&assistant_id=${assistantId}`}`,
          Envelope,
        )
      ).data,
    refetchInterval: analyticsDisplay.autoRefreshMs,
  });

export const useCuratedAnalytics = (days: number, assistantId?: number) =>
  useQuery(curatedAnalyticsQuery(days, assistantId));
