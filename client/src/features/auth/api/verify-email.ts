import { DetailAnswerSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Spends the mailed link's token (a POST from the page, so a mail scanner opening the link does not). */
export const verifyEmail = (body: { token: string }) => api.post('/auth/verify-email', DetailAnswerSchema, { body });

export const useVerifyEmail = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    // A signed-in owner's notice goes away.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['me'] }),
  });
};

export const resendVerification = () => api.post('/auth/verify-email/resend', DetailAnswerSchema);

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
