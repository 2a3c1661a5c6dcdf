import { PublicChatPage } from '@/features/public-chat/components/public-chat-page';
import type { VisitorPageProps } from '../route-table';

export function Component({ params }: VisitorPageProps) {
  return <PublicChatPage assistantId={params.assistantId ?? ''} threadId={params.threadId} />;
}
