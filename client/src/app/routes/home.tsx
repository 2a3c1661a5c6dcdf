import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { AboutPage } from '@/features/marketing/components/about-page';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { signOutIntent } from '@/features/auth/sign-out-intent';
import { paths } from '@/lib/paths';

/** `/`: the about page for visitors, the dashboard for signed-in owners (spec §2). */
export function Component() {
  const { t } = useTranslation();
  const { status } = useAuth();
  useEffect(() => {
    if (status === 'signedOut') signOutIntent.end();
  }, [status]);
  if (status === 'loading') return <Spinner label={t('common:loading')} />;
  if (status === 'signedIn') return <Navigate to={paths.dashboard} replace />;
  return <AboutPage />;
}
