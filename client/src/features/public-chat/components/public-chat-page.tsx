import '../locales';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { sharedAssistantStore } from '../shared-assistant-store';

/** /public-chat/{assistantId}: the visitor's chat frame; messaging arrives with the chat feature. */
export function PublicChatPage() {
  const { t } = useTranslation('public');
  const { assistantId } = useParams();
  const assistant = sharedAssistantStore.load(assistantId) ?? { name: t('sharedAssistant'), description: '' };
  return (
    <main id="main" className="standalone chat-frame">
      <header className="chat-head">
        <h1 dir="auto">{assistant.name}</h1>
        {assistant.description ? <p className="muted" dir="auto">{assistant.description}</p> : null}
      </header>
      <section className="empty-state">
        <h2>{t('startConversation')}</h2>
        <p>{t('ready')}</p>
        <p className="muted">{t('chatSoon')}</p>
      </section>
    </main>
  );
}
