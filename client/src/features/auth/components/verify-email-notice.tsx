import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { serverText } from '@/lib/server-texts';
import { useResendVerification } from '../api/verify-email';
// The reminder shows on any owner page, before the sign-in pages (which load these) were ever opened.
import '../locales';
import { useAuth } from '../hooks/use-auth';

const DISMISSED = 'verify-notice-dismissed';

/**
 * A gentle reminder for owners who signed up with a password and have not verified their address yet:
 * everything works without it, but Google sign-in cannot join the account and a listed operator does not
 * count until they do. "Resend" mails a new link; "Later" hides it for this browser session.
 */
export function VerifyEmailNotice() {
  const { t } = useTranslation('auth');
  const { user } = useAuth();
  const resend = useResendVerification();
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED) === '1');
  if (!user || user.emailVerified || user.providerId !== 'password' || dismissed) return null;

  const said = resend.isSuccess
    ? serverText(resend.data.detail)
    : resend.isError
      ? (localizedDetail(resend.error) ?? errorMessage(resend.error, t))
      : null;
  return (
    <aside className="banner banner-info verify-notice" aria-label={t('verifyNoticeLabel')}>
      {/* The address is isolated (bdi), so a Hebrew sentence does not reorder its characters. */}
      <p>
        {t('verifyNotice')} <bdi dir="ltr">{user.email}</bdi>
      </p>
      <p className="muted small">{t('verifyNoticeWhy')}</p>
      {said ? (
        <p role="status" className={resend.isError ? 'form-error' : 'form-success'}>
          {said}
        </p>
      ) : null}
      <div className="banner-actions">
        <Button variant="secondary" onClick={() => resend.mutate()} disabled={resend.isPending || resend.isSuccess}>
          {resend.isPending ? t('resending') : t('resendVerification')}
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            sessionStorage.setItem(DISMISSED, '1');
            setDismissed(true);
          }}
        >
          {t('later')}
        </Button>
      </div>
    </aside>
  );
}
