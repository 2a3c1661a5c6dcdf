import { useTexts } from '@/lib/texts';
import { publicLocales } from '../locales';
import { sharedAssistantStore } from '../shared-assistant-store';

/** /public-chat/{assistantId}: the visitor's chat frame. */
export function PublicChatPage({ assistantId }: { assistantId: string; threadId?: string }) {
  const { t } = useTexts('public', publicLocales);
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
