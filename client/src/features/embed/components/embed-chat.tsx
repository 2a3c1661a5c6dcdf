import { Fragment, memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { SharedAssistant } from '@/features/public-chat/api/shared-assistant';
import type { Language } from '@/lib/language';
import type { Translate } from '@/lib/texts';
import type { ConversationStore, Rating } from '../conversation-store';
import type { EmbedMessage } from '../embed-messages';
import type { EmbedConversation } from '../hooks/use-embed-session';
import { useEmbedChat } from '../hooks/use-embed-chat';
import { openRedirect } from '../parent-window';
import { EmbedInput } from './embed-input';
import { FeedbackButtons } from './feedback-buttons';
import { Icon } from '@/components/ui/icon';
import { MessageText } from './message-text';
import { BidiLines, sourceLabel, visibleText } from '@/lib/chat-core/message-display';

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

interface ItemProps {
  message: EmbedMessage;
  name: string;
  time: Intl.DateTimeFormat;
  onRate: (messageId: string, rating: Rating) => Promise<void>;
  onRateError: () => void;
  t: Translate;
}

/** One bubble with its time; assistant replies from the server carry the like/dislike buttons. */
const MessageItem = memo(function MessageItem({ message, name, time, onRate, onRateError, t }: ItemProps) {
  const date = new Date(message.timestamp);
  return (
    <li className={`embed-msg embed-msg-${message.role}`}>
      {/* Outside the bubble: dir="auto" must take the direction from the message, not from this label. */}
      <span className="visually-hidden">{message.role === 'user' ? t('you') : t('assistantSays', { name })}</span>
      <div className="embed-bubble" dir="auto">
        <MessageText text={message.text} />
      </div>
      {message.role === 'assistant' && message.sources.length > 0 ? (
        <p className="embed-sources">
          {t('sources')}:{' '}
          {message.sources.map((source, i) => (
            <Fragment key={`${source.fileId}-${i}`}>
              {i > 0 ? ', ' : null}
              {source.sourceUrl ? (
                <a href={source.sourceUrl} target="_self" rel="noopener noreferrer" dir="auto" title={source.sourceUrl}>
                  {sourceLabel(source)}
                </a>
              ) : (
                <span dir="auto">{sourceLabel(source)}</span>
              )}
            </Fragment>
          ))}
        </p>
      ) : null}
      {message.redirectUrl ? (
        <a
          className="btn btn-secondary embed-visit"
          href={message.redirectUrl}
          onClick={(event) => {
            event.preventDefault();
            openRedirect(message.redirectUrl!);
          }}
        >
          {t('visitLink')}
        </a>
      ) : null}
      <div className="embed-meta">
        <time dateTime={date.toISOString()}>{time.format(date)}</time>
        {message.role === 'assistant' && !message.local ? (
          <FeedbackButtons
            given={message.feedback}
            onRate={(rating) => onRate(message.id, rating)}
            onError={onRateError}
            t={t}
          />
        ) : null}
      </div>
    </li>
  );
});

/** The clear confirmation (spec §5) on the native <dialog>: focus trap and Escape come with it. */
function ClearDialog({
  onConfirm,
  onCancel,
  busy,
  t,
}: {
  onConfirm: () => void;
  onCancel: () => void;
  busy: boolean;
  t: Translate;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
  }, []);
  return (
    <dialog
      ref={ref}
      className="embed-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{t('clearTitle')}</h2>
      <p id={`${id}-text`}>{t('clearConfirm')}</p>
      <div className="embed-dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} autoFocus>
          {t('cancel')}
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy}>
          {t('clearYes')}
        </button>
      </div>
    </dialog>
  );
}

/** The ready embed page (spec part 2 §2): header, welcome card, conversation, Thinking, input. */
export function EmbedChat({ assistant, shareToken, initial, store, t, language }: Props) {
  const chat = useEmbedChat({ assistant, shareToken, initial, store, t });
  const [confirming, setConfirming] = useState(false);
  const logRef = useRef<HTMLDivElement>(null);
  const time = useMemo(() => timeFormat(language), [language]);
  const initial_ = assistant.name.trim().slice(0, 1).toUpperCase() || '?';
  const rateError = useMemo(() => () => chat.setAlert(t('feedbackFailed')), [chat.setAlert, t]);

  // Keep the newest message in view.
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [chat.messages.length, chat.thinking, chat.streamText]);

  const busy = chat.thinking || chat.switching;
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
            {chat.messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                name={assistant.name}
                time={time}
                onRate={chat.giveFeedback}
                onRateError={rateError}
                t={t}
              />
            ))}
          </ol>
        </div>
        {chat.thinking && chat.streamText ? (
          <div className="embed-msg embed-msg-assistant embed-streaming" aria-hidden="true">
            <div className="embed-bubble" dir="auto">
              <BidiLines text={visibleText(chat.streamText)} />
            </div>
          </div>
        ) : null}
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
        onChange={chat.setDraft}
        onSend={() => void chat.send()}
        blocked={busy || !chat.threadId}
        t={t}
      />

      {confirming ? (
        <ClearDialog
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
