export { TermsPage as Component } from '@/features/legal/components/terms-page';
