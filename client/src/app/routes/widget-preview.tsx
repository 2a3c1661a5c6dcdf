import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useAssistant } from '@/features/assistants/api/get-assistant';
import { useGenerateShareToken } from '@/features/assistants/api/generate-share-token';
import { WidgetPreviewPage } from '@/features/widget-preview/components/widget-preview-page';

/** Composes Widget Preview with the assistants feature: the assistant and its share token on demand. */
export function Component() {
  const { assistantId } = useParams();
  const id = Number(assistantId);
  const assistant = useAssistant(id);
  const generate = useGenerateShareToken();
  const queryClient = useQueryClient();
  return (
    <WidgetPreviewPage
      key={assistantId}
      assistantId={id}
      assistant={assistant.data}
      pending={assistant.isPending}
      error={assistant.error}
      onRetry={() => void assistant.refetch()}
      generateShareToken={async () => {
        const { share_token } = await generate.mutateAsync(id);
        void queryClient.invalidateQueries({ queryKey: ['assistant', id] });
        return share_token;
      }}
    />
  );
}
