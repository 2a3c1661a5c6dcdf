import { SessionSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

export interface Credentials {
  email: string;
  password: string;
}

export const login = (body: Credentials) => api.post('/auth/login', SessionSchema, { body });

/** Signs in and stores the session, so every later call carries the bearer token. */
export const useLogin = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      tokenStorage.set(session.access_token, session.user.uid);
      queryClient.setQueryData(['me'], session.user);
    },
  });
};
