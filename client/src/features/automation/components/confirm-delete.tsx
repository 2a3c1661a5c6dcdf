import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';

interface Props {
  /** The spec's question (§5), e.g. "Are you sure you want to delete this workflow?" */
  question: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The delete confirmation of the three pages: an in-page dialog rather than window.confirm, so it speaks the page's language. */
export function ConfirmDelete({ question, busy, onConfirm, onClose }: Props) {
  const { t } = useTranslation('automation');
  return (
    <Modal
      title={t('confirmTitle')}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? t('deleting') : t('confirmDelete')}
          </Button>
        </>
      }
    >
      <p>{question}</p>
    </Modal>
  );
}
