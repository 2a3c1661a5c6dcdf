import '@/features/auth/locales';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { DashboardPage } from '@/features/assistants/components/dashboard-page';
import { displayName, useAuth } from '@/features/auth/hooks/use-auth';
import { CrawlProgressPanel } from '@/features/crawler/components/crawl-progress-panel';
import { SmartCrawlerDialog } from '@/features/crawler/components/smart-crawler-dialog';
import { ManageFilesModal } from '@/features/files/components/manage-files-modal';

/** Composes the dashboard (assistants feature) with the files and crawler features' modals and the crawl progress panel. */
export function Component() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // Spec §4: a finished crawl reloads the assistants (the panel closes itself 3 s later).
  const crawlCompleted = useCallback(() => void queryClient.invalidateQueries({ queryKey: ['assistants'] }), [queryClient]);
  return (
    <>
      <DashboardPage
        userName={user ? displayName(user) : ''}
        renderFilesModal={(assistant, onClose, onShare, onCrawler) => <ManageFilesModal assistant={assistant} onClose={onClose} onShare={onShare} onCrawler={onCrawler} />}
        renderCrawlerModal={(assistant, onClose) => <SmartCrawlerDialog assistant={assistant} onClose={onClose} />}
      />
      <CrawlProgressPanel onCompleted={crawlCompleted} />
    </>
  );
}
