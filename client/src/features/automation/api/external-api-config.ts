import { type ExternalApiConfigBody, ExternalApiConfigSchema, TestConnectionResponseSchema } from '@kesher/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-error';
import { api } from '@/lib/api-client';

const base = (assistantId: number) => `/external-api/assistants/${assistantId}`;
const queryKey = (assistantId: number) => ['external-api-config', assistantId] as const;

/** GET …/config: the assistant's named endpoints (secrets masked); none configured yet reads as an empty set. */
export async function getExternalApiConfig(assistantId: number) {
  try {
    return await api.get(`${base(assistantId)}/config`, ExternalApiConfigSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
export const externalApiConfigQuery = (assistantId: number) =>
  queryOptions({ queryKey: queryKey(assistantId), queryFn: () => getExternalApiConfig(assistantId) });
export const useExternalApiConfig = (assistantId: number) => useQuery(externalApiConfigQuery(assistantId));

/** POST …/config: the whole set; a masked secret sent back as read keeps the stored one. */
export const saveExternalApiConfig = ({ assistantId, body }: { assistantId: number; body: ExternalApiConfigBody }) =>
  api.post(`${base(assistantId)}/config`, ExternalApiConfigSchema, { body });
/** DELETE …/config: every endpoint of the assistant. */
export const deleteExternalApiConfig = (assistantId: number) => api.delete(`${base(assistantId)}/config`);
/** GET …/test-connection?endpoint_name=: probes one named endpoint through the same guards as actions. */
export const testConnection = ({ assistantId, name }: { assistantId: number; name: string }) =>
  api.get(
    `${base(assistantId)}/test-connection?endpoint_name=${encodeURIComponent(name)}`,
    TestConnectionResponseSchema,
  );

export function useSaveExternalApiConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveExternalApiConfig,
    onSuccess: (config, { assistantId }) => queryClient.setQueryData(queryKey(assistantId), config),
  });
}
export function useDeleteExternalApiConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteExternalApiConfig,
    onSuccess: (_, assistantId) => queryClient.setQueryData(queryKey(assistantId), null),
  });
}
export const useTestConnection = () => useMutation({ mutationFn: testConnection });
