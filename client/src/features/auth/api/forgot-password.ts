import { DetailAnswerSchema } from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export const forgotPassword = (body: { email: string }) =>
  api.post('/auth/forgot-password', DetailAnswerSchema, { body });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
