import '@/features/auth/locales';
export { RegisterPage as Component } from '@/features/auth/components/register-page';
