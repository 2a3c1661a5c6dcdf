import { AssistantSchema, type UpdateAssistantBody } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const updateAssistant = ({ id, body }: { id: number; body: Partial<UpdateAssistantBody> }) =>
  api.put(`/assistants/${id}`, AssistantSchema, { body });

export const useUpdateAssistant = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAssistant,
    onSuccess: (assistant) => {
      queryClient.setQueryData(['assistant', assistant.id], assistant);
      return queryClient.invalidateQueries({ queryKey: ['assistants'] });
    },
  });
};
