import '@/features/auth/locales';
export { VerifyEmailPage as Component } from '@/features/auth/components/verify-email-page';
