import { DeleteAccountCard } from '@/features/auth/components/delete-account';
import { deleteAccountLocales, DELETE_ACCOUNT_NAMESPACE } from '@/features/auth/locales/delete-account';
import { useTexts } from '@/lib/texts';

/** /settings: the owner's account settings; for now, deleting the account (issue 24). */
export function Component() {
  const { t } = useTexts(DELETE_ACCOUNT_NAMESPACE, deleteAccountLocales);
  return (
    <section className="page narrow">
      <h1>{t('pageTitle')}</h1>
      <DeleteAccountCard />
    </section>
  );
}
