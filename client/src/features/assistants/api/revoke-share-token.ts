import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const revokeShareToken = (id: number) => api.delete(`/assistants/${id}/share-token`);

export const useRevokeShareToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeShareToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['assistants'] }),
  });
};
