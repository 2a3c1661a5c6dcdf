import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useAuthConfig } from '../api/get-auth-config';
import { useRegister } from '../api/register';
import { useAuth } from '../hooks/use-auth';
import { useForcedEnglish } from '../hooks/use-forced-english';
import { checkPassword, firstFailing } from '../password-rules';
import { GoogleButton } from './google-button';
import { PasswordStrength } from './password-strength';

export const REGISTER_REDIRECT_MS = 2000;

export function RegisterPage() {
  useForcedEnglish();
  const { t } = useTranslation('auth');
  const { status } = useAuth();
  const config = useAuthConfig();
  const register = useRegister();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [registered, setRegistered] = useState(false);

  useEffect(() => {
    if (!registered) return;
    const timer = setTimeout(() => navigate(paths.dashboard, { replace: true }), REGISTER_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [registered, navigate]);

  if (status === 'loading') return <Spinner label={t('checking')} />;
  if (status === 'signedIn' && !registered && !register.isPending) return <Navigate to={paths.dashboard} replace />;

  const checks = checkPassword(password);
  const failing = firstFailing(checks);
  const termsError = submitted && !agreed ? t('termsRequired') : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setError(null);
    if (failing || !agreed) return;
    register.mutate(
      { email, password },
      {
        onSuccess: () => setRegistered(true),
        onError: (err) => {
          if (err instanceof ApiError && err.detail && err.status !== null && err.status < 500) setError(err.detail);
          else if (err instanceof ApiError && err.code !== 'unexpected') setError(t(`errors:${err.code}`));
          else setError(t('registerFailed'));
        },
      },
    );
  };

  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1>{t('registerTitle')}</h1>
        <p className="muted">{t('registerSubtitle')}</p>
        {registered ? (
          <p className="form-success" role="status">
            {t('registered')}
          </p>
        ) : (
          <form onSubmit={submit}>
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
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={password && failing ? t(`rule${failing}`) : null}
              hint={<PasswordStrength checks={checks} />}
            />
            <div className="field checkbox-field">
              <input
                id="terms"
                type="checkbox"
                checked={agreed}
                onChange={(e) => setAgreed(e.target.checked)}
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? 'terms-error' : undefined}
              />
              <label htmlFor="terms">
                {t('termsPrefix')} <Link to={paths.terms}>{t('termsLink')}</Link> {t('termsAnd')}{' '}
                <Link to={paths.privacy}>{t('privacyLink')}</Link>
              </label>
              {termsError ? (
                <p id="terms-error" className="field-error" role="alert">
                  {termsError}
                </p>
              ) : null}
            </div>
            {error ? (
              <p className="form-error" role="alert">
                {error}
              </p>
            ) : null}
            <Button type="submit" className="btn-block" disabled={register.isPending}>
              {register.isPending ? t('signingUp') : t('signUp')}
            </Button>
          </form>
        )}
        {config.data?.google_client_id && !registered ? (
          <>
            <div className="divider">
              <span>{t('or')}</span>
            </div>
            <GoogleButton
              clientId={config.data.google_client_id}
              mode="signUp"
              onSignedIn={() => setRegistered(true)}
              onError={setError}
            />
          </>
        ) : null}
        <p className="auth-footer">
          {t('haveAccount')} <Link to={paths.login}>{t('loginHere')}</Link>
        </p>
      </div>
    </section>
  );
}
