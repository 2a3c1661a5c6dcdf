import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { serverText } from '@/lib/server-texts';
import { useAuth } from '../hooks/use-auth';
import { useVerifyEmail } from '../api/verify-email';

/** Where a verification mail lands (`/verify-email?token=…`): the page spends the token once, by POST. */
export function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const { status } = useAuth();
  const asked = useRef(false);

  useEffect(() => {
    // Once per page, also under StrictMode's double effects: a second call would find the link spent.
    if (!token || asked.current) return;
    asked.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  const next =
    status === 'signedIn' ? { to: paths.dashboard, label: t('toDashboard') } : { to: paths.login, label: t('signIn') };
  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1>{t('verifyTitle')}</h1>
        {!token ? (
          <p className="form-error" role="alert">
            {serverText('This link is incomplete. Please open it again from the email, or ask for a new one.')}
          </p>
        ) : verify.isSuccess ? (
          <p className="form-success" role="status">
            {serverText(verify.data.detail)}
          </p>
        ) : verify.isError ? (
          <p className="form-error" role="alert">
            {localizedDetail(verify.error) ?? errorMessage(verify.error, t)}
          </p>
        ) : (
          <Spinner label={t('verifying')} />
        )}
        <Link className="btn btn-secondary btn-block" to={next.to}>
          {next.label}
        </Link>
      </div>
    </section>
  );
}
