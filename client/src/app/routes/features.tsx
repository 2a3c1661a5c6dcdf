export { FeaturesPage as Component } from '@/features/marketing/components/features-page';
