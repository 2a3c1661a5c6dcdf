import { QaImportResultSchema, QaListSchema, QaSchema } from '@kesher/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Curated answers (issue 26): one assistant's Q&A, and the calls that change them. */
export const qaQuery = (assistantId: number) =>
  queryOptions({
    queryKey: ['qa', assistantId],
    queryFn: () => api.get(`/assistants/${assistantId}/qa`, QaListSchema),
  });
export const useQaList = (assistantId: number) => useQuery(qaQuery(assistantId));

function useQaMutation<Input, Output>(assistantId: number, call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    // A new Q&A also takes its question off the lists of questions answered with no source.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['qa', assistantId] }),
        queryClient.invalidateQueries({ queryKey: ['analytics', 'curated-answers'] }),
      ]),
  });
}

export const useAddQa = (assistantId: number) =>
  useQaMutation(assistantId, (body: { question: string; answer: string; thread_id?: string }) =>
    api.post(`/assistants/${assistantId}/qa`, QaSchema, { body }),
  );
export const useEditQa = (assistantId: number) =>
  useQaMutation(assistantId, ({ qaId, ...body }: { qaId: string; question: string; answer: string }) =>
    api.put(`/assistants/${assistantId}/qa/${encodeURIComponent(qaId)}`, QaSchema, { body }),
  );
export const useDeleteQa = (assistantId: number) =>
  useQaMutation(assistantId, (qaId: string) => api.delete(`/assistants/${assistantId}/qa/${encodeURIComponent(qaId)}`));
export const useImportQa = (assistantId: number) =>
  useQaMutation(assistantId, (csv: string) =>
    api.post(`/assistants/${assistantId}/qa/import`, QaImportResultSchema, { body: { csv } }),
  );
