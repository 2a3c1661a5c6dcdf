import { SharedChatPage } from '@/features/public-chat/components/shared-chat-page';
import { navigate } from '../location';
import type { VisitorPageProps } from '../route-table';

export function Component({ params, search }: VisitorPageProps) {
  return <SharedChatPage shareToken={params.shareToken ?? ''} search={search} navigate={navigate} />;
}
