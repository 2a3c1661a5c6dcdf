import { PlanListSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /subscriptions/plans: the catalogue the server enforces, Free first. */
export const getPlans = () => api.get('/subscriptions/plans', PlanListSchema);

export const plansQuery = () =>
  queryOptions({ queryKey: ['subscriptions', 'plans'], queryFn: getPlans, staleTime: 10 * 60_000 });

export const usePlans = () => useQuery(plansQuery());
