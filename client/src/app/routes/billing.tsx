export { BillingPage as Component } from '@/features/billing/components/billing-page';
