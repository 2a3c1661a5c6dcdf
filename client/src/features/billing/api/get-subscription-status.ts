import { SubscriptionStatusSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /subscriptions/status: tier, status, the period and whether it ends there. */
export const getSubscriptionStatus = () => api.get('/subscriptions/status', SubscriptionStatusSchema);

export const subscriptionStatusQuery = () =>
  queryOptions({ queryKey: ['subscriptions', 'status'], queryFn: getSubscriptionStatus });

export const useSubscriptionStatus = (options: { enabled?: boolean; refetchInterval?: number | false } = {}) =>
  useQuery({
    ...subscriptionStatusQuery(),
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval ?? false,
  });
