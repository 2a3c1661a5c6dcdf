import { KnowledgeFileSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const uploadFile = ({ assistantId, file }: { assistantId: number; file: File }) => {
  const form = new FormData();
  form.append('file', file);
  return api.post(`/assistants/${assistantId}/upload_file`, KnowledgeFileSchema, { form });
};

export const useUploadFile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadFile,
    onSuccess: (_, { assistantId }) => queryClient.invalidateQueries({ queryKey: ['files', assistantId] }),
  });
};
