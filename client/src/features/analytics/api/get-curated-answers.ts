import { analyticsDisplay, CuratedAnalyticsSchema, successEnvelope } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const Envelope = successEnvelope(CuratedAnalyticsSchema);

/**
 * GET /analytics/curated-answers?days= (issue 26 item 4): the owner's answers from the Q&A. The same
 * query key as the Q&A feature's list of questions answered with no source, so the page asks once and a
 * new Q&A refreshes both.
 */
export const curatedAnswersQuery = (days: number) =>
  queryOptions({
    queryKey: ['analytics', 'curated-answers', days, 'all'],
    queryFn: async () => (await api.get(`/analytics/curated-answers?days=${days}`, Envelope)).data,
    refetchInterval: analyticsDisplay.autoRefreshMs,
  });

export const useCuratedAnswers = (days: number) => useQuery(curatedAnswersQuery(days));
