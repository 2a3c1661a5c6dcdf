export { PaymentTestPage as Component } from '@/features/coming-soon/components/soon-page';
