import { DetailAnswerSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

export const resetPassword = (body: { token: string; password: string }) =>
  api.post('/auth/reset-password', DetailAnswerSchema, { body });

/** A reset ends every session of the account, this browser's too: its stored session is dropped. */
export const useResetPassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      tokenStorage.clear();
      queryClient.setQueryData(['me'], null);
    },
  });
};
