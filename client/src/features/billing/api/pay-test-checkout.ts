import { type TestCheckoutParams, TranzilaMockResponseSchema } from '@kesher/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface TestCard {
  card_number: string;
  card_holder: string;
  /** MM/YY, as the spec's form posts it. */
  expiry: string;
  cvv: string;
}

/**
 * POST /api/v1/subscriptions/tranzila-mock, form-encoded (spec part 2 §7): the page's own parameters
 * posted back with the card. The answer says success or failed (a declined card is a processed payment).
 */
export function payTestCheckout({ params, card }: { params: Record<string, string>; card: TestCard }) {
  const form = new URLSearchParams(params);
  for (const [name, value] of Object.entries(card)) form.set(name, value);
  return api.post('/subscriptions/tranzila-mock', TranzilaMockResponseSchema, { form });
}

/** A paid checkout changes the plan, its limits and the history: what the app holds of them is stale at once. */
export const usePayTestCheckout = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: payTestCheckout,
    onSuccess: (answer) =>
      answer.status === 'success' ? queryClient.invalidateQueries({ queryKey: ['subscriptions'] }) : undefined,
  });
};

export type { TestCheckoutParams };
