import '@/features/auth/locales';
export { OAuthCallbackPage as Component } from '@/features/auth/components/oauth-callback-page';
