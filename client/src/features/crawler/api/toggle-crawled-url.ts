import { ToggledUrlResponseSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /crawler-settings/url/{id}/toggle: off deletes the page's file, on makes a new one. */
export const toggleCrawledUrl = ({ urlId }: { urlId: string; assistantId: number }) =>
  api.post(`/crawler-settings/url/${encodeURIComponent(urlId)}/toggle`, ToggledUrlResponseSchema);

export const useToggleCrawledUrl = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleCrawledUrl,
    onSuccess: (_, { assistantId }) => queryClient.invalidateQueries({ queryKey: ['crawled-urls', assistantId] }),
  });
};
