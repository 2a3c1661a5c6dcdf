import { CreateCrawlerResponseSchema, type CrawlerConfigDto } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface CreateCrawlerInput {
  assistant_id: number;
  website_url: string;
  crawl_interval: CrawlerConfigDto['crawl_interval'];
  max_pages?: number;
  max_depth?: number;
  delete_orphaned_pages?: boolean;
  /** true: crawl the whole site and add every page (Crawl Again, the create flow); false: only save. */
  start_crawl: boolean;
  /** A started crawl: the whole site (default), or only the pages the assistant holds of it (`held`). */
  pages?: 'site' | 'held';
}

/** POST /web-crawler/: configure the assistant's crawler and maybe start a crawl (the crawl id is `data.crawl_id`). */
export const createCrawler = async (input: CreateCrawlerInput) =>
  (await api.post('/web-crawler/', CreateCrawlerResponseSchema, { body: input })).data;

export const useCreateCrawler = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCrawler,
    onSuccess: (_, { assistant_id }) => {
      void queryClient.invalidateQueries({ queryKey: ['crawler-config', assistant_id] });
      // Configuring turns the assistant's own crawler on with this address (one crawler state: the Edit page reads it).
      void queryClient.invalidateQueries({ queryKey: ['assistants'] });
      void queryClient.invalidateQueries({ queryKey: ['assistant', assistant_id] });
    },
  });
};
