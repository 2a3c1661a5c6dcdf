import '@/features/auth/locales';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback } from 'react';
import { DashboardPage } from '@/features/assistants/components/dashboard-page';
import { displayName, useAuth } from '@/features/auth/hooks/use-auth';
import { CrawlProgressPanel } from '@/features/crawler/components/crawl-progress-panel';
import { DrivePicker } from '@/features/drive/components/drive-picker';
import { ManageFilesModal } from '@/features/files/components/manage-files-modal';
import { useOnline } from '../layout/offline-indicator';

// The crawler's dialogs load when first opened: the dashboard's first load carries only the progress panel.
const SmartCrawlerDialog = lazy(() =>
  import('@/features/crawler/components/smart-crawler-dialog').then((m) => ({ default: m.SmartCrawlerDialog })),
);

/** Composes the dashboard (assistants feature) with the files (and its Drive picker) and crawler features' modals and the crawl progress panel. */
export function Component() {
  const { user } = useAuth();
  const online = useOnline();
  const queryClient = useQueryClient();
  // Spec §4: a finished crawl reloads the assistants (the panel closes itself 3 s later).
  const crawlCompleted = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['assistants'] }),
    [queryClient],
  );
  return (
    <>
      <DashboardPage
        userName={user ? displayName(user) : ''}
        online={online}
        renderFilesModal={(assistant, onClose, onShare, onCrawler) => (
          <ManageFilesModal
            assistant={assistant}
            onClose={onClose}
            onShare={onShare}
            onCrawler={onCrawler}
            drivePicker={<DrivePicker assistantId={assistant.id} />}
          />
        )}
        renderCrawlerModal={(assistant, onClose) => (
          <Suspense fallback={null}>
            <SmartCrawlerDialog assistant={assistant} onClose={onClose} />
          </Suspense>
        )}
      />
      <CrawlProgressPanel onCompleted={crawlCompleted} />
    </>
  );
}
