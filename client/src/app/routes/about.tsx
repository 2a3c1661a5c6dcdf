export { AboutPage as Component } from '@/features/marketing/components/about-page';
