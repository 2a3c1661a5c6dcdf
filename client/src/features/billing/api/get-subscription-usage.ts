import { SubscriptionUsageSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /subscriptions/usage: assistants, this month's messages and storage against the plan's limits. */
export const getSubscriptionUsage = () => api.get('/subscriptions/usage', SubscriptionUsageSchema);

export const subscriptionUsageQuery = () =>
  queryOptions({ queryKey: ['subscriptions', 'usage'], queryFn: getSubscriptionUsage });

export const useSubscriptionUsage = () => useQuery(subscriptionUsageQuery());
