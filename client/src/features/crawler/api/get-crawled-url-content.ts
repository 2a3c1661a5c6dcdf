import { CrawledUrlContentResponseSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /crawler-settings/url/{id}/content: the page's text as the assistant holds it, or `{ error }`. */
export const getCrawledUrlContent = (urlId: string) =>
  api.get(`/crawler-settings/url/${encodeURIComponent(urlId)}/content`, CrawledUrlContentResponseSchema);

export const crawledUrlContentQuery = (urlId: string) =>
  queryOptions({ queryKey: ['crawled-url-content', urlId], queryFn: () => getCrawledUrlContent(urlId) });

export const useCrawledUrlContent = (urlId: string) => useQuery(crawledUrlContentQuery(urlId));
