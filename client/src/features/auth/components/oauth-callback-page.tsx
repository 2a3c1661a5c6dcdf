import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/lib/toast-store';
import { paths } from '@/lib/paths';

/** Storage key for a Drive token handed back by the server's OAuth flow (used by the Drive import). */
export const DRIVE_TOKEN_KEY = 'googleDriveToken';

/**
 * /oauth/callback (spec §2): reads the Drive result from the query, stores it, and hands over to the
 * dashboard (which opens the files modal when asked to). Errors and bad parameters also end on the dashboard.
 */
export function OAuthCallbackPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const error = params.get('google_drive_error');
    const token = params.get('google_drive_token');
    const assistantId = params.get('assistant_id');
    if (error) {
      notify.error(t('driveFailed', { error }));
      navigate(paths.dashboard, { replace: true });
      return;
    }
    if (token && params.get('google_drive_success') === 'true') {
      localStorage.setItem(DRIVE_TOKEN_KEY, token);
      const next = new URLSearchParams({ google_drive_success: 'true' });
      if (assistantId && /^\d+$/.test(assistantId)) next.set('assistant_id', assistantId);
      if (params.get('open_modal')) next.set('open_modal', params.get('open_modal')!);
      navigate(`${paths.dashboard}?${next}`, { replace: true });
      return;
    }
    navigate(paths.dashboard, { replace: true });
  }, [params, navigate, t]);
  return <Spinner label={t('oauthWorking')} />;
}
