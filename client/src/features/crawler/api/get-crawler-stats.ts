import { CrawlerStatsSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /crawler-settings/assistant/{id}/stats: the stats bar. */
export const getCrawlerStats = (assistantId: number) =>
  api.get(`/crawler-settings/assistant/${assistantId}/stats`, CrawlerStatsSchema);

export const crawlerStatsQuery = (assistantId: number) =>
  queryOptions({ queryKey: ['crawled-urls', assistantId, 'stats'], queryFn: () => getCrawlerStats(assistantId) });

export const useCrawlerStats = (assistantId: number) => useQuery(crawlerStatsQuery(assistantId));
