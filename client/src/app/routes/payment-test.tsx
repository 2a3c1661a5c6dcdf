export { PaymentTestPage as Component } from '@/features/billing/components/payment-test-page';
