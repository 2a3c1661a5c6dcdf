import '@/features/auth/locales';
export { LoginPage as Component } from '@/features/auth/components/login-page';
