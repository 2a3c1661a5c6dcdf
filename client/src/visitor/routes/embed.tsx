import { EmbedPage } from '@/features/embed/components/embed-page';
import type { VisitorPageProps } from '../route-table';

export function Component({ params, search }: VisitorPageProps) {
  return <EmbedPage shareToken={params.shareToken ?? ''} search={search} />;
}
