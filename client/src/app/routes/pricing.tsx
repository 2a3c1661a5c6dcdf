export { PricingPage as Component } from '@/features/marketing/components/pricing-page';
