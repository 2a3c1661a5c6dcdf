import '@/features/auth/locales';
import { DashboardPage } from '@/features/assistants/components/dashboard-page';
import { displayName, useAuth } from '@/features/auth/hooks/use-auth';
import { ManageFilesModal } from '@/features/files/components/manage-files-modal';

/** Composes the dashboard (assistants feature) with the files feature's modal. */
export function Component() {
  const { user } = useAuth();
  return (
    <DashboardPage
      userName={user ? displayName(user) : ''}
      renderFilesModal={(assistant, onClose, onShare) => <ManageFilesModal assistant={assistant} onClose={onClose} onShare={onShare} />}
    />
  );
}
