import { useState } from 'react';
import { useTexts } from '@/lib/texts';
import { deleteVisitorConversation } from '../api/privacy';
import { privacyLocales, PRIVACY_NAMESPACE } from '../locales';

/**
 * "Delete this conversation" in a visitor's chat (share link, widget): asks first, then erases the
 * conversation for good (the server checks the visitor's session token) and hands back to the chat,
 * which starts fresh. Plain elements only: it renders in the visitor bundle (Preact, no toasts).
 */
export function DeleteConversation({
  threadId,
  sessionToken,
  onDeleted,
}: {
  threadId: string | undefined;
  sessionToken: string | null;
  onDeleted: () => void;
}) {
  const { t } = useTexts(PRIVACY_NAMESPACE, privacyLocales);
  const [mode, setMode] = useState<'idle' | 'confirm' | 'deleting' | 'failed'>('idle');
  const [done, setDone] = useState(false);
  if (!threadId || !sessionToken) {
    return done ? (
      <p className="muted small privacy-deleted" role="status">
        {t('deleteConversation.deleted')}
      </p>
    ) : null;
  }

  async function remove(thread: string, token: string) {
    setMode('deleting');
    try {
      await deleteVisitorConversation(thread, token);
      setDone(true);
      setMode('idle');
      onDeleted();
    } catch {
      setMode('failed');
    }
  }

  if (mode === 'confirm' || mode === 'deleting' || mode === 'failed') {
    return (
      <div className="privacy-confirm" role="group" aria-label={t('deleteConversation.button')}>
        <p id="privacy-delete-question">{t('deleteConversation.confirm')}</p>
        {mode === 'failed' ? (
          <p className="field-error" role="alert">
            {t('deleteConversation.failed')}
          </p>
        ) : null}
        <div className="privacy-confirm-actions">
          <button
            type="button"
            className="btn btn-danger"
            aria-describedby="privacy-delete-question"
            disabled={mode === 'deleting'}
            onClick={() => void remove(threadId, sessionToken)}
          >
            {mode === 'deleting' ? t('deleteConversation.deleting') : t('deleteConversation.yes')}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={mode === 'deleting'}
            onClick={() => setMode('idle')}
          >
            {t('deleteConversation.cancel')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <button type="button" className="btn btn-secondary privacy-delete" onClick={() => setMode('confirm')}>
      {t('deleteConversation.button')}
    </button>
  );
}
