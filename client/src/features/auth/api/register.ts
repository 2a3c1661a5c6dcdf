import { SessionSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

export interface RegisterInput {
  email: string;
  password: string;
  display_name?: string;
}

/** The server answers a registration with a session, so no separate sign-in call is needed. */
export const register = (body: RegisterInput) => api.post('/auth/register', SessionSchema, { body });

export const useRegister = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (session) => {
      tokenStorage.set(session.access_token, session.user.uid);
      // The user is cached now but the redirect waits for the success message (2 s, spec §2).
      queryClient.setQueryData(['me'], session.user);
    },
  });
};
