import { AuthConfigSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getAuthConfig = () => api.get('/auth/config', AuthConfigSchema);

export const authConfigQuery = () =>
  queryOptions({ queryKey: ['auth-config'], queryFn: getAuthConfig, staleTime: Infinity });

export const useAuthConfig = () => useQuery(authConfigQuery());
