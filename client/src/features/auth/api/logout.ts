import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { liveSockets } from '@/lib/live-sockets';
import { tokenStorage } from '@/lib/token-storage';
import { signOutIntent } from '../sign-out-intent';

export const logout = () => api.post('/auth/logout', null);

/** Spec §4: a failed logout still clears the local user and storage. */
export const useLogout = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      signOutIntent.start();
      // Live feeds (crawl progress, subscriptions) end with the session, whatever page is open.
      liveSockets.closeAll();
      return logout().catch(() => undefined);
    },
    onSettled: () => {
      tokenStorage.clear();
      queryClient.setQueryData(['me'], null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' && q.queryKey[0] !== 'auth-config' });
    },
  });
};
