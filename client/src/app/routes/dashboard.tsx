import '@/features/auth/locales';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback } from 'react';
import { DashboardPage } from '@/features/assistants/components/dashboard-page';
import { displayName, useAuth } from '@/features/auth/hooks/use-auth';
import { useActiveCrawl } from '@/features/crawler/hooks/use-active-crawl';
import { useOnline } from '../layout/offline-indicator';

// The dialogs load when first opened: the dashboard's first load carries only the list and the progress
// panel. Manage Files brings the files, curated answers and Drive picker code (and their texts) with it.
const ManageFilesModal = lazy(() =>
  import('@/features/files/components/manage-files-modal').then((m) => ({ default: m.ManageFilesModal })),
);
const DrivePicker = lazy(() =>
  import('@/features/drive/components/drive-picker').then((m) => ({ default: m.DrivePicker })),
);
// The progress panel (and the crawler's texts and socket) loads once there is a crawl to follow.
const CrawlProgressPanel = lazy(() =>
  import('@/features/crawler/components/crawl-progress-panel').then((m) => ({ default: m.CrawlProgressPanel })),
);
const SmartCrawlerDialog = lazy(() =>
  import('@/features/crawler/components/smart-crawler-dialog').then((m) => ({ default: m.SmartCrawlerDialog })),
);

/** The crawl progress panel while session storage names a crawl (started here, or before a reload). */
function CrawlProgress({ onCompleted }: { onCompleted: () => void }) {
  const active = useActiveCrawl();
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <CrawlProgressPanel onCompleted={onCompleted} />
    </Suspense>
  );
}

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
          <Suspense fallback={null}>
            <ManageFilesModal
              assistant={assistant}
              onClose={onClose}
              onShare={onShare}
              onCrawler={onCrawler}
              drivePicker={
                <Suspense fallback={null}>
                  <DrivePicker assistantId={assistant.id} />
                </Suspense>
              }
            />
          </Suspense>
        )}
        renderCrawlerModal={(assistant, onClose) => (
          <Suspense fallback={null}>
            <SmartCrawlerDialog assistant={assistant} onClose={onClose} />
          </Suspense>
        )}
      />
      <CrawlProgress onCompleted={crawlCompleted} />
    </>
  );
}
