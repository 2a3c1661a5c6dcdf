import { EmbedPage } from '@/features/public-chat/components/embed-page';
import type { VisitorPageProps } from '../route-table';

export function Component({ params }: VisitorPageProps) {
  return <EmbedPage shareToken={params.shareToken ?? ''} />;
}
