import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const deleteFile = ({ assistantId, fileId }: { assistantId: number; fileId: string }) =>
  api.delete(`/assistants/${assistantId}/files/${encodeURIComponent(fileId)}`);

export const useDeleteFile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: (_, { assistantId }) => queryClient.invalidateQueries({ queryKey: ['files', assistantId] }),
  });
};
