import { DeleteCrawledUrlsResponseSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /crawler-settings/assistant/{id}/urls (body url_ids). */
export const deleteCrawledUrls = ({ assistantId, urlIds }: { assistantId: number; urlIds: string[] }) =>
  api.delete(`/crawler-settings/assistant/${assistantId}/urls`, DeleteCrawledUrlsResponseSchema, {
    body: { url_ids: urlIds },
  });

export const useDeleteCrawledUrls = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCrawledUrls,
    onSuccess: (_, { assistantId }) => queryClient.invalidateQueries({ queryKey: ['crawled-urls', assistantId] }),
  });
};
