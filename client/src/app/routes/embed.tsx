export { EmbedPage as Component } from '@/features/public-chat/components/embed-page';
