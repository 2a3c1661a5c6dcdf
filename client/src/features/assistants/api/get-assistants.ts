import { AssistantSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const AssistantListSchema = AssistantSchema.array();

export const getAssistants = () => api.get('/assistants/', AssistantListSchema);

export const assistantsQuery = () => queryOptions({ queryKey: ['assistants'], queryFn: getAssistants });

export const useAssistants = () => useQuery(assistantsQuery());
