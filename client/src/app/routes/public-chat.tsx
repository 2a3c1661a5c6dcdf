export { PublicChatPage as Component } from '@/features/public-chat/components/public-chat-page';
