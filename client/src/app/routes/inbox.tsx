export { AllInboxPage as Component } from '@/features/inbox/components/all-inbox-page';
