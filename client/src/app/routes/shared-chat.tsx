export { SharedChatPage as Component } from '@/features/public-chat/components/shared-chat-page';
