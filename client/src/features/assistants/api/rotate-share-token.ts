import { ShareTokenSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Replaces the share token: the previous link, and every widget and conversation using it, stop working. */
export const rotateShareToken = (id: number) => api.post(`/assistants/${id}/rotate-share-token`, ShareTokenSchema);

export const useRotateShareToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateShareToken,
    onSuccess: (_, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['assistants'] }),
        queryClient.invalidateQueries({ queryKey: ['assistant', id] }),
      ]),
  });
};
