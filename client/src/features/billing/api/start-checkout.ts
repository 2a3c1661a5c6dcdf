import { type CheckoutRequest, CheckoutResponseSchema } from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /subscriptions/checkout: the address to pay at (Stripe Checkout, or the test payment page). */
export const startCheckout = (input: CheckoutRequest) =>
  api.post('/subscriptions/checkout', CheckoutResponseSchema, { body: input });

export const useStartCheckout = () => useMutation({ mutationFn: startCheckout });
