import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { VerifyEmailNotice } from '@/features/auth/components/verify-email-notice';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { signOutIntent } from '@/features/auth/sign-out-intent';
import { paths } from '@/lib/paths';

/** Protected routes: a visitor who is not signed in goes to /login?redirect=<where they were going>. */
export function RequireAuth() {
  const { t } = useTranslation('auth');
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <Spinner label={t('checking')} />;
  if (status === 'signedOut' && signOutIntent.active) return null;
  if (status === 'signedOut')
    return <Navigate to={paths.loginWithRedirect(location.pathname + location.search)} replace />;
  return <Outlet />;
}

/** The owner's pages in the shared layout: the same guard, with the verify-your-address reminder above them. */
export function RequireAuthWithNotice() {
  const { status } = useAuth();
  return (
    <>
      {status === 'signedIn' ? <VerifyEmailNotice /> : null}
      <RequireAuth />
    </>
  );
}
