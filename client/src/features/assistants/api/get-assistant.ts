import { AssistantSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getAssistant = (id: number) => api.get(`/assistants/${id}`, AssistantSchema);

export const assistantQuery = (id: number) =>
  queryOptions({ queryKey: ['assistant', id], queryFn: () => getAssistant(id) });

export const useAssistant = (id: number) =>
  useQuery({ ...assistantQuery(id), enabled: Number.isInteger(id) && id > 0 });
