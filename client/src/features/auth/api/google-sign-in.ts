import { SessionSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

/** Exchanges a Google ID token (from Google Identity Services) for a Kesher session. */
export const googleSignIn = (idToken: string) =>
  api.post('/auth/google', SessionSchema, { body: { id_token: idToken } });

export const useGoogleSignIn = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: googleSignIn,
    onSuccess: (session) => {
      tokenStorage.set(session.access_token, session.user.uid);
      queryClient.setQueryData(['me'], session.user);
    },
  });
};
