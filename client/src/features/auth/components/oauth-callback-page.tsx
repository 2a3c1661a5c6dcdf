import { driveMessages } from '@kesher/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { serverText } from '@/lib/server-texts';
import { notify } from '@/lib/toast-store';
import { paths } from '@/lib/paths';

/** Storage key for a Drive token handed back by the server's OAuth flow (used by the Drive import). */
export const DRIVE_TOKEN_KEY = 'googleDriveToken';
/** The flow this tab started (the Drive picker writes it before leaving for Google's consent screen). */
const DRIVE_FLOW_KEY = 'googleDriveFlow';

/**
 * /oauth/callback (spec §2): reads the Drive result from the query, stores it, and hands over to the
 * dashboard (which opens the files modal when asked to). A token is kept only when the return names the
 * flow this tab started: a link to this page made elsewhere cannot plant someone else's Drive in it.
 * Errors and bad parameters also end on the dashboard, said in the page's language.
 */
export function OAuthCallbackPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const handled = useRef(false);
  useEffect(() => {
    // Once: the flow is used up by its first reading (and effects may run twice in development).
    if (handled.current) return;
    handled.current = true;
    const expectedFlow = sessionStorage.getItem(DRIVE_FLOW_KEY);
    sessionStorage.removeItem(DRIVE_FLOW_KEY);
    const error = params.get('google_drive_error');
    const token = params.get('google_drive_token');
    const assistantId = params.get('assistant_id');
    const fail = (reason: string) => {
      notify.error(t('driveFailed', { error: serverText(reason) }));
      navigate(paths.dashboard, { replace: true });
    };
    if (error) return fail(error);
    if (token && params.get('google_drive_success') === 'true') {
      if (!expectedFlow || params.get('flow') !== expectedFlow) return fail(driveMessages.otherBrowser);
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
