import { CrawlerMessageResponseSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /web-crawler/{configId}: the site is removed from the assistant (its schedule stops; its crawler is off). */
export const deleteCrawler = ({ configId }: { configId: string; assistantId: number }) =>
  api.delete(`/web-crawler/${encodeURIComponent(configId)}`, CrawlerMessageResponseSchema);

export const useDeleteCrawler = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCrawler,
    onSuccess: (_, { assistantId }) => {
      void queryClient.invalidateQueries({ queryKey: ['crawler-config', assistantId] });
      // The assistant's own crawler switch follows (the Edit page reads it).
      void queryClient.invalidateQueries({ queryKey: ['assistants'] });
      void queryClient.invalidateQueries({ queryKey: ['assistant', assistantId] });
    },
  });
};
