import { CrawlerConfigResponseSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /web-crawler/assistant/{id}: the assistant's crawler configuration, or null when it has none. */
export const getCrawlerConfig = async (assistantId: number) =>
  (await api.get(`/web-crawler/assistant/${assistantId}`, CrawlerConfigResponseSchema)).data;

/**
 * Asked afresh whenever the dialog opens (`refetchOnMount: 'always'`): its counts and "last crawled" move
 * with commits and crawls made since (issue 22 item 12: an old "Files added" after Crawl Again).
 */
export const crawlerConfigQuery = (assistantId: number) =>
  queryOptions({
    queryKey: ['crawler-config', assistantId],
    queryFn: () => getCrawlerConfig(assistantId),
    refetchOnMount: 'always',
  });

export const useCrawlerConfig = (assistantId: number) => useQuery(crawlerConfigQuery(assistantId));
