import { useEffect, useMemo, useRef, useState } from 'react';
import type { SharedAssistant } from '@/features/public-chat/api/shared-assistant-shape';
import type { Language } from '@/lib/language';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import type { Translate } from '@/lib/texts';
import type { ConversationStore } from '../conversation-store';
import type { EmbedConversation } from '../hooks/use-embed-session';
import { useEmbedChat } from '../hooks/use-embed-chat';
import { EmbedInput } from './embed-input';
import { Icon } from '@/components/ui/icon';

interface Props {
  assistant: SharedAssistant;
  shareToken: string;
  initial: EmbedConversation;
  store: ConversationStore;
  t: Translate;
  language: Language;
}

const timeFormat = (language: Language) =>
  new Intl.DateTimeFormat(language === 'he' ? 'he-IL' : 'en-GB', { hour: '2-digit', minute: '2-digit' });

// The messages, the streamed answer and the clear dialog: one download for all of them, started while the
// visitor types (or when a restored conversation shows its messages).
const chatParts = lazyModule(() => import('./embed-chat-parts'));

/** The ready embed page (spec part 2 §2): header, welcome card, conversation, Thinking, input. */
export function EmbedChat({ assistant, shareToken, initial, store, t, language }: Props) {
  const chat = useEmbedChat({ assistant, shareToken, initial, store, t });
  const [confirming, setConfirming] = useState(false);
  const logRef = useRef<HTMLDivElement>(null);
  const time = useMemo(() => timeFormat(language), [language]);
  const initial_ = assistant.name.trim().slice(0, 1).toUpperCase() || '?';
  const rateError = useMemo(() => () => chat.setAlert(t('feedbackFailed')), [chat.setAlert, t]);

  const busy = chat.thinking || chat.switching;
  const parts = useLazyModule(chat.messages.length > 0 || chat.streamText || confirming ? chatParts : null);

  // Keep the newest message in view (also once the messages' code has arrived and they show).
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [chat.messages.length, chat.thinking, chat.streamText, parts]);
  return (
    <main id="main" className="embed">
      <header className="embed-head">
        <span className="avatar" aria-hidden="true">
          {initial_}
        </span>
        <div className="embed-title">
          <h1 dir="auto">{assistant.name}</h1>
          <span className="embed-online">
            <span className="dot" aria-hidden="true" /> {t('online')}
          </span>
        </div>
        {chat.restored ? <span className="badge embed-restored">{t('historyRestored')}</span> : null}
        <div className="embed-head-actions">
          <button
            type="button"
            className="icon-btn"
            aria-label={t('newConversation')}
            title={t('newConversation')}
            disabled={busy}
            onClick={() => void chat.newConversation()}
          >
            <Icon name="plus" />
          </button>
          <button
            type="button"
            className="icon-btn"
            aria-label={t('clearConversation')}
            title={t('clearConversation')}
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            <Icon name="trash" />
          </button>
        </div>
      </header>

      <div className="embed-log" ref={logRef}>
        <section className="card welcome embed-welcome">
          <h2 dir="auto">{t('hi', { name: assistant.name })}</h2>
          <p dir="auto">{assistant.description || t('invite')}</p>
        </section>
        <div role="log" aria-label={t('conversation')}>
          <ol className="embed-messages">
            {parts
              ? chat.messages.map((message) => (
                  <parts.MessageItem
                    key={message.id}
                    message={message}
                    name={assistant.name}
                    time={time}
                    onRate={chat.giveFeedback}
                    onRateError={rateError}
                    t={t}
                  />
                ))
              : null}
          </ol>
        </div>
        {parts && chat.thinking && chat.streamText ? <parts.StreamingBubble text={chat.streamText} /> : null}
        {chat.thinking ? (
          <p className="embed-thinking" role="status">
            <span className="embed-dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            {t('thinking')}
          </p>
        ) : null}
      </div>

      {chat.alert ? (
        <div className="embed-alert" role="alert">
          <span>{chat.alert}</span>
          <button type="button" className="icon-btn" aria-label={t('dismiss')} onClick={() => chat.setAlert(null)}>
            ×
          </button>
        </div>
      ) : null}
      <EmbedInput
        value={chat.draft}
        onChange={(value) => {
          // The messages' code is wanted once this question is sent: fetch it while it is typed.
          void chatParts.load().catch(() => {});
          chat.setDraft(value);
        }}
        onSend={() => void chat.send()}
        blocked={busy || !chat.threadId}
        t={t}
      />

      {parts && confirming ? (
        <parts.ClearDialog
          busy={chat.switching}
          t={t}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void chat.clearConversation();
          }}
        />
      ) : null}
    </main>
  );
}
