import { BillingPortalResponseSchema } from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /subscriptions/billing-portal: the payments service's page for cards and invoices, returning here. */
export const openBillingPortal = (returnUrl: string) =>
  api.post('/subscriptions/billing-portal', BillingPortalResponseSchema, { body: { return_url: returnUrl } });

export const useOpenBillingPortal = () => useMutation({ mutationFn: openBillingPortal });
