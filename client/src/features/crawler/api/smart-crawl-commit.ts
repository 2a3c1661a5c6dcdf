import { CommitResponseSchema, crawlerLimits } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /web-crawler/smart-crawl-commit: the chosen pages of a preview become knowledge files (waits up to 300 s). */
export const smartCrawlCommit = ({
  previewId,
  assistantId,
  filenames,
}: {
  previewId: string;
  assistantId: number;
  filenames: string[];
}) =>
  api.post('/web-crawler/smart-crawl-commit', CommitResponseSchema, {
    body: { preview_id: previewId, assistant_id: assistantId, selected_filenames: filenames },
    timeoutMs: crawlerLimits.commitTimeoutMs,
  });

export const useSmartCrawlCommit = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: smartCrawlCommit,
    onSuccess: (_, { assistantId }) => {
      void queryClient.invalidateQueries({ queryKey: ['crawler-config', assistantId] });
      void queryClient.invalidateQueries({ queryKey: ['crawler-pages', assistantId] });
      void queryClient.invalidateQueries({ queryKey: ['files', assistantId] });
    },
  });
};
