import { ShareTokenSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The assistant's share token and its public URL: the current one, or a new one when it has none (never a replacement). */
export const generateShareToken = (id: number) => api.post(`/assistants/${id}/generate-share-token`, ShareTokenSchema);

export const useGenerateShareToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateShareToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['assistants'] }),
  });
};
