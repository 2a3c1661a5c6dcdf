import { AssistantSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /assistants/: the owner's assistants, for the Test of an action that calls a named endpoint (the dashboard's query key). */
const assistantsQuery = () =>
  queryOptions({ queryKey: ['assistants'], queryFn: () => api.get('/assistants/', AssistantSchema.array()) });
export const useAssistantsList = (enabled: boolean) => useQuery({ ...assistantsQuery(), enabled });
