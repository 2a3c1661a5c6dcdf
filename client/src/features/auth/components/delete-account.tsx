import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useTexts } from '@/lib/texts';
import { notify } from '@/lib/toast-store';
import { useDeleteAccount } from '../api/delete-account';
import { useAuth } from '../hooks/use-auth';
import { deleteAccountLocales, DELETE_ACCOUNT_NAMESPACE } from '../locales/delete-account';

/** Which text explains a refusal: by the answer's status (the server's texts are English only). */
function errorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'errors.failed';
  if (error.status === 400) return 'errors.passwordRequired';
  if (error.status === 429) return 'errors.tooMany';
  if (error.status === 403)
    return error.detail?.startsWith('Please sign in again') ? 'errors.signInAgain' : 'errors.wrongPassword';
  return 'errors.failed';
}

/**
 * "Delete my account" (issue 24): a card on the settings page and a confirmation asking for the password
 * again — a session left open on a shared computer is not enough to delete everything.
 */
export function DeleteAccountCard() {
  const { t } = useTexts(DELETE_ACCOUNT_NAMESPACE, deleteAccountLocales);
  const { user } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const deletion = useDeleteAccount();
  const google = user?.providerId === 'google.com';

  const close = () => {
    setOpen(false);
    setPassword('');
    deletion.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    deletion.mutate(google ? undefined : password, {
      onSuccess: () => {
        notify.success(t('deleted'));
        void navigate(paths.home);
      },
    });
  };

  return (
    <section className="card danger-zone" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">{t('title')}</h2>
      <p>{t('intro')}</p>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('open')}
      </Button>
      {open ? (
        <Modal
          title={t('confirmTitle')}
          onClose={close}
          footer={
            <>
              <Button variant="secondary" onClick={close} disabled={deletion.isPending}>
                {t('cancel')}
              </Button>
              <Button
                variant="danger"
                type="submit"
                form="delete-account-form"
                disabled={deletion.isPending || (!google && !password)}
              >
                {deletion.isPending ? t('deleting') : t('confirm')}
              </Button>
            </>
          }
        >
          <form id="delete-account-form" onSubmit={submit}>
            <p>{google ? t('confirmTextGoogle') : t('confirmText')}</p>
            {google ? null : (
              <TextField
                label={t('password')}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoFocus
              />
            )}
            {deletion.isError ? (
              <p className="field-error" role="alert">
                {t(errorKey(deletion.error))}
              </p>
            ) : null}
          </form>
        </Modal>
      ) : null}
    </section>
  );
}
