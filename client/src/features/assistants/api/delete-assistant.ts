import type { AssistantDto } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const deleteAssistant = (id: number) => api.delete(`/assistants/${id}`);

export const useDeleteAssistant = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAssistant,
    onSuccess: (_, id) => {
      queryClient.setQueryData<AssistantDto[]>(['assistants'], (list) => list?.filter((a) => a.id !== id));
      return queryClient.invalidateQueries({ queryKey: ['assistants'] });
    },
  });
};
