import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { liveSockets } from '@/lib/live-sockets';
import { tokenStorage } from '@/lib/token-storage';
import { signOutIntent } from '../sign-out-intent';

/** DELETE /auth/me: the password again (a Google account: a recent sign-in instead). */
export const deleteAccount = (password: string | undefined) =>
  api.delete('/auth/me', null, { body: password ? { password } : {} });

/** Deleted: the session is gone on the server; the app forgets it like a sign-out. */
export const useDeleteAccount = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      signOutIntent.start();
      liveSockets.closeAll();
      tokenStorage.clear();
      queryClient.setQueryData(['me'], null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' && q.queryKey[0] !== 'auth-config' });
    },
  });
};
