import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /subscriptions/cancel with `immediately: false`: the plan ends with the period already paid for. */
export const cancelSubscription = () => api.post('/subscriptions/cancel', null, { body: { immediately: false } });

export const useCancelSubscription = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['subscriptions'] }),
  });
};
