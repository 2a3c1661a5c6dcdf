import { type CreateAssistantBody, CreateAssistantResponseSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { assistantsQuery } from './get-assistants';

/** The body as the form sends it (defaults such as chat_limit are the server's). */
export type CreateAssistantInput = Partial<CreateAssistantBody> &
  Pick<CreateAssistantBody, 'name' | 'description' | 'instructions'>;

export const createAssistant = (body: CreateAssistantInput) =>
  api.post('/assistants/', CreateAssistantResponseSchema, { body });

export const useCreateAssistant = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAssistant,
    // The dashboard is not on screen while an assistant is created, so an invalidation alone would leave
    // its cached list (without the new one: "0 assistants") to be shown first on the way back. The list
    // is fetched now instead; the server answers a create only once its list includes it.
    // (If that read fails, the list is only marked stale: the assistant was created all the same.)
    onSuccess: () =>
      queryClient.fetchQuery({ ...assistantsQuery(), staleTime: 0 }).then(
        () => undefined,
        () => queryClient.invalidateQueries({ queryKey: ['assistants'] }),
      ),
  });
};
