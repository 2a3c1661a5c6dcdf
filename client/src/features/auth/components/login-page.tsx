import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useAuthConfig } from '../api/get-auth-config';
import { useLogin } from '../api/login';
import { useAuth } from '../hooks/use-auth';
import { useForcedEnglish } from '../hooks/use-forced-english';
import { GoogleButton } from './google-button';

/** Only same-site paths are followed after sign-in, so a crafted link cannot send the owner elsewhere. */
export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : paths.dashboard;
}

export function LoginPage() {
  useForcedEnglish();
  const { t } = useTranslation('auth');
  const { status } = useAuth();
  const config = useAuthConfig();
  const login = useLogin();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const target = safeRedirect(params.get('redirect'));

  if (status === 'loading') return <Spinner label={t('checking')} />;
  if (status === 'signedIn' && !login.isPending) return <Navigate to={target} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    login.mutate(
      { email, password },
      {
        onSuccess: () => navigate(target, { replace: true }),
        onError: (err) => {
          // The server's sign-in refusals are already the spec's texts (wrong credentials, too many attempts).
          if (err instanceof ApiError && (err.status === 401 || err.status === 429 || err.status === 422) && err.detail)
            setError(err.detail);
          else if (err instanceof ApiError && err.code !== 'unexpected') setError(t(`errors:${err.code}`));
          else setError(t('loginFailed'));
        },
      },
    );
  };

  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1>{t('loginTitle')}</h1>
        <p className="muted">{t('loginSubtitle')}</p>
        <form onSubmit={submit} noValidate={false}>
          <TextField
            label={t('email')}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label={t('password')}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p className="forgot-link">
            <Link to={paths.forgotPassword}>{t('forgotPassword')}</Link>
          </p>
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <Button type="submit" className="btn-block" disabled={login.isPending}>
            {login.isPending ? t('signingIn') : t('signIn')}
          </Button>
        </form>
        {config.data?.google_client_id ? (
          <>
            <div className="divider">
              <span>{t('or')}</span>
            </div>
            <GoogleButton
              clientId={config.data.google_client_id}
              mode="signIn"
              onSignedIn={() => navigate(target, { replace: true })}
              onError={setError}
            />
          </>
        ) : null}
        {config.data?.demo_accounts ? <p className="muted small">{t('demoHint')}</p> : null}
        <p className="auth-footer">
          {t('noAccount')} <Link to={paths.register}>{t('registerHere')}</Link>
        </p>
      </div>
    </section>
  );
}
