import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { serverText } from '@/lib/server-texts';
import { useResetPassword } from '../api/reset-password';
import { checkPassword, firstFailing } from '../password-rules';
import { PasswordStrength } from './password-strength';

/** The page a reset mail links to (`/reset-password?token=…`): a new password, with the register page's rules. */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const checks = checkPassword(password);
  const failing = firstFailing(checks);
  const mismatch = submitted && confirm !== password ? t('passwordsDiffer') : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setError(null);
    if (failing || confirm !== password) return;
    reset.mutate(
      { token, password },
      {
        onSuccess: (answer) => setDone(serverText(answer.detail)),
        // An expired or used link, a password the server refuses: the server's own words say what to do.
        onError: (err) => setError(localizedDetail(err) ?? errorMessage(err, t)),
      },
    );
  };

  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1>{t('resetTitle')}</h1>
        {done ? (
          <>
            <p className="form-success" role="status">
              {done}
            </p>
            <Link className="btn btn-primary btn-block" to={paths.login}>
              {t('signIn')}
            </Link>
          </>
        ) : !token ? (
          <p className="form-error" role="alert">
            {serverText('This link is incomplete. Please open it again from the email, or ask for a new one.')}
          </p>
        ) : (
          <form onSubmit={submit}>
            <p className="muted">{t('resetSubtitle')}</p>
            <TextField
              label={t('newPassword')}
              type="password"
              name="new-password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={password && failing ? t(`rule${failing}`) : null}
              hint={<PasswordStrength checks={checks} />}
            />
            <TextField
              label={t('confirmPassword')}
              type="password"
              name="confirm-password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              error={mismatch}
            />
            {error ? (
              <p className="form-error" role="alert">
                {error}
              </p>
            ) : null}
            <Button type="submit" className="btn-block" disabled={reset.isPending}>
              {reset.isPending ? t('savingPassword') : t('savePassword')}
            </Button>
          </form>
        )}
        {done ? null : (
          <p className="auth-footer">
            <Link to={paths.forgotPassword}>{t('askNewLink')}</Link>
          </p>
        )}
      </div>
    </section>
  );
}
