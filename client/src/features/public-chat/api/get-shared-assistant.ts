import { SharedAssistantSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** What a visitor holding a share link may see of an assistant (no sign-in). */
export const getSharedAssistant = (token: string) => api.get(`/assistants/shared/${encodeURIComponent(token)}`, SharedAssistantSchema);

export const sharedAssistantQuery = (token: string) =>
  queryOptions({ queryKey: ['shared-assistant', token], queryFn: () => getSharedAssistant(token), retry: false });

export const useSharedAssistant = (token: string) => useQuery(sharedAssistantQuery(token));
