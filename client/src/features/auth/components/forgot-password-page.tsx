import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ApiError, errorMessage, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { serverText } from '@/lib/server-texts';
import { useForgotPassword } from '../api/forgot-password';

/**
 * "Forgot password?": asks for a reset link. The server answers the same for every address, so this
 * page says the same too — whether an account exists is for the mailbox to tell.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    forgot.mutate(
      { email },
      {
        onSuccess: (answer) => setSent(serverText(answer.detail)),
        // Too many requests and a malformed address say what to do; anything else gets the catalogue's text.
        onError: (err) =>
          setError(
            err instanceof ApiError && (err.status === 429 || err.status === 422)
              ? (localizedDetail(err) ?? errorMessage(err, t))
              : errorMessage(err, t),
          ),
      },
    );
  };

  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1>{t('forgotTitle')}</h1>
        {sent ? (
          <p className="form-success" role="status">
            {sent}
          </p>
        ) : (
          <>
            <p className="muted">{t('forgotSubtitle')}</p>
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
              {error ? (
                <p className="form-error" role="alert">
                  {error}
                </p>
              ) : null}
              <Button type="submit" className="btn-block" disabled={forgot.isPending}>
                {forgot.isPending ? t('sendingResetLink') : t('sendResetLink')}
              </Button>
            </form>
          </>
        )}
        <p className="auth-footer">
          <Link to={paths.login}>{t('backToSignIn')}</Link>
        </p>
      </div>
    </section>
  );
}
