import { KnowledgeFileSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const FileListSchema = KnowledgeFileSchema.array();

export const getFiles = (assistantId: number) => api.get(`/assistants/${assistantId}/files`, FileListSchema);

export const filesQuery = (assistantId: number) =>
  queryOptions({ queryKey: ['files', assistantId], queryFn: () => getFiles(assistantId) });

export const useFiles = (assistantId: number) => useQuery(filesQuery(assistantId));
