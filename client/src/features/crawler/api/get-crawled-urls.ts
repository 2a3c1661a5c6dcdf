import { crawlerLimits, CrawledUrlsResponseSchema } from '@kesher/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface CrawledUrlsFilter {
  search: string;
  enabled: 'all' | 'enabled' | 'disabled';
  page: number;
}

/** GET /crawler-settings/assistant/{id}/urls: one page (20) of the assistant's crawled URLs, newest first. */
export const getCrawledUrls = (assistantId: number, { search, enabled, page }: CrawledUrlsFilter) => {
  const query = new URLSearchParams({
    skip: String(page * crawlerLimits.settingsPageSize),
    limit: String(crawlerLimits.settingsPageSize),
  });
  if (search.trim()) query.set('search', search.trim());
  if (enabled !== 'all') query.set('is_enabled', String(enabled === 'enabled'));
  return api.get(`/crawler-settings/assistant/${assistantId}/urls?${query}`, CrawledUrlsResponseSchema);
};

export const crawledUrlsQuery = (assistantId: number, filter: CrawledUrlsFilter) =>
  queryOptions({
    queryKey: ['crawled-urls', assistantId, filter],
    queryFn: () => getCrawledUrls(assistantId, filter),
    placeholderData: keepPreviousData,
  });

export const useCrawledUrls = (assistantId: number, filter: CrawledUrlsFilter) =>
  useQuery(crawledUrlsQuery(assistantId, filter));
