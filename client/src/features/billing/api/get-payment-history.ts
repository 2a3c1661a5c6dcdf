import { PaymentHistorySchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The billing page lists the last five payments (spec part 2 §9). */
export const PAYMENT_HISTORY_LIMIT = 5;

/** GET /subscriptions/payment-history?limit=5, newest first. */
export const getPaymentHistory = () =>
  api.get(`/subscriptions/payment-history?limit=${PAYMENT_HISTORY_LIMIT}`, PaymentHistorySchema);

export const paymentHistoryQuery = () =>
  queryOptions({ queryKey: ['subscriptions', 'payment-history'], queryFn: getPaymentHistory });

export const usePaymentHistory = () => useQuery(paymentHistoryQuery());
