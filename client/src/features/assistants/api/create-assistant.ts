import { type CreateAssistantBody, CreateAssistantResponseSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The body as the form sends it (defaults such as chat_limit are the server's). */
export type CreateAssistantInput = Partial<CreateAssistantBody> & Pick<CreateAssistantBody, 'name' | 'description' | 'instructions'>;

export const createAssistant = (body: CreateAssistantInput) => api.post('/assistants/', CreateAssistantResponseSchema, { body });

export const useCreateAssistant = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createAssistant, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['assistants'] }) });
};
