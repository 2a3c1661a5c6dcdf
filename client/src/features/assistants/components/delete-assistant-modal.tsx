import type { AssistantDto } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useDeleteAssistant } from '../api/delete-assistant';

export function DeleteAssistantModal({ assistant, onClose }: { assistant: AssistantDto; onClose: () => void }) {
  const { t } = useTranslation('assistants');
  const remove = useDeleteAssistant();
  return (
    <Modal
      title={t('deleteTitle')}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
            {t('common:cancel')}
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(assistant.id, {
                onSuccess: () => {
                  notify.success(t('deleted', { name: assistant.name }));
                  onClose();
                },
                onError: (error) => notify.error(t('deleteFailed', { message: errorMessage(error, t) })),
              })
            }
          >
            {remove.isPending ? t('deleting') : t('common:delete')}
          </Button>
        </>
      }
    >
      <p>{t('deleteConfirm', { name: assistant.name })}</p>
    </Modal>
  );
}
