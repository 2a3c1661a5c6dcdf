import type { AssistantDto } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/modal';

/** Chat History shell: the thread list arrives with the chat feature (no threads API yet). */
export function ChatHistoryModal({ assistant, onClose }: { assistant: AssistantDto; onClose: () => void }) {
  const { t } = useTranslation('assistants');
  return (
    <Modal title={t('historyTitle', { name: assistant.name })} onClose={onClose}>
      <div className="empty-state">
        <p>{t('common:comingSoonTitle')}</p>
        <p className="muted">{t('historyEmpty')}</p>
      </div>
    </Modal>
  );
}

export function CrawlerSoonModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('assistants');
  return (
    <Modal title={t('crawlerTitle')} onClose={onClose}>
      <p>{t('common:comingSoonTitle')}</p>
      <p className="muted">{t('crawlerSoon')}</p>
    </Modal>
  );
}
