import { CrawlerPagesResponseSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /assistants/{id}/crawler-pages: the pages the assistant already holds (the File Selection preset). */
export const getCrawlerPages = async (assistantId: number) =>
  (await api.get(`/assistants/${assistantId}/crawler-pages`, CrawlerPagesResponseSchema)).selected_pages;

export const crawlerPagesQuery = (assistantId: number) =>
  queryOptions({ queryKey: ['crawler-pages', assistantId], queryFn: () => getCrawlerPages(assistantId) });

export const useCrawlerPages = (assistantId: number) => useQuery(crawlerPagesQuery(assistantId));
