import { type ReactNode, useEffect, useRef } from 'react';
import type { ChatMessage } from '@/lib/chat-core/chat-messages';
import { Spinner } from '@/components/ui/spinner';
import { useTexts } from '@/lib/texts';
import { linkTarget, progressStage } from '../chat-rules';
import { type ChatAssistant, type ChatConnection, useChat } from '../hooks/use-chat';
import { CHAT_NAMESPACE, chatLocales } from '../locales';
import { ChatInput } from './chat-input';
import { MessageItem } from './message-item';
import { BidiLines, visibleText } from '@/lib/chat-core/message-display';

export interface ChatScreenProps {
  assistant: ChatAssistant;
  threadId: string | undefined;
  connection: ChatConnection;
  /** The address follows the conversation: called with a new thread's id, or undefined to start fresh. */
  onThreadChange: (threadId: string | undefined) => void;
  /** The owner's header: back to the dashboard and New Chat (both hidden on public chats, §2). */
  onBack?: () => void;
  allowNewChat?: boolean;
  /** Where links open; by default from the address (§2: new tab, except inside the embed frame). */
  target?: '_self' | '_blank';
  /**
   * The owner reading a visitor's conversation from Chat History: no input (it is the visitor's to
   * write in) and a note saying so. 'unknown' while the conversation's kind is being read: no input yet.
   */
  readOnly?: 'visitor' | 'unknown' | false;
  /**
   * Something the page shows under an answer (the owner's chat: what automation did for it). A slot, so
   * the chat knows no other feature; keep it a stable function, or every message re-renders per token.
   */
  messageNote?: MessageNote;
  /** More in the header, at its end (the visitor's "Delete this conversation"); a slot, so the chat knows no other feature. */
  headerExtra?: ReactNode;
}

/** Under one saved answer: `fresh` when it has just arrived in this page rather than from history. */
export type MessageNote = (message: ChatMessage, fresh: boolean) => ReactNode;

/**
 * The chat screen shared by /chat (owner) and /public-chat (visitor). It imports neither router, query
 * cache nor i18n runtime: the visitor bundle renders it on Preact.
 */
export function ChatScreen({
  assistant,
  threadId,
  connection,
  onThreadChange,
  onBack,
  allowNewChat,
  target,
  readOnly = false,
  messageNote,
  headerExtra,
}: ChatScreenProps) {
  const { t } = useTexts(CHAT_NAMESPACE, chatLocales);
  const chat = useChat({ assistant, threadId, connection, onThreadChange, t });
  const linksOpen = target ?? linkTarget(typeof location === 'undefined' ? '' : location.pathname);
  const end = useRef<HTMLDivElement>(null);

  // Keep the newest words in view as messages arrive and the answer grows.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [chat.messages.length, chat.streamText, chat.running]);

  const stage = chat.requiresAction ? t('stage.requiresAction') : t(`stage.${progressStage(chat.progress)}`);
  const empty = !chat.historyLoading && chat.messages.length === 0 && chat.streamText === null;

  return (
    <main id="main" className="chat-page">
      <header className="chat-head chat-page-head">
        {onBack ? (
          <button type="button" className="btn btn-ghost chat-back" onClick={onBack}>
            <span aria-hidden="true" className="chat-back-arrow">
              ←
            </span>{' '}
            {t('back')}
          </button>
        ) : null}
        <div className="chat-title">
          <h1 dir="auto">{assistant.name}</h1>
          {assistant.description ? (
            <p className="muted chat-description" dir="auto">
              {assistant.description}
            </p>
          ) : null}
        </div>
        {allowNewChat ? (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void chat.newChat()}
            disabled={chat.sending}
          >
            {t('newChat')}
          </button>
        ) : null}
        {headerExtra}
      </header>

      <section className="chat-log" aria-label={t('conversation')}>
        {chat.historyLoading ? <Spinner label={t('loadingMessages')} /> : null}
        {empty ? (
          <div className="empty-state chat-empty">
            <h2>{t('startConversation')}</h2>
            <p className="muted">{t('ready')}</p>
          </div>
        ) : null}
        <div role="log" aria-busy={chat.historyLoading || undefined}>
          <ol className="chat-messages">
            {chat.messages.map((message) => (
              <MessageItem
                key={chat.keyOf(message)}
                message={message}
                fresh={message.id === chat.freshId}
                target={linksOpen}
                onFeedback={chat.giveFeedback}
                onAlert={chat.showAlert}
                rateable={!readOnly}
                note={messageNote}
                t={t}
              />
            ))}
          </ol>
        </div>
        {chat.streamText !== null ? (
          <div className="chat-msg chat-msg-assistant chat-streaming" aria-busy="true">
            <div className="chat-bubble" dir="auto">
              <BidiLines text={visibleText(chat.streamText)} />
            </div>
          </div>
        ) : null}
        {chat.running ? (
          <div className="chat-thinking">
            <progress max={100} value={Math.round(chat.progress)} aria-label={t('thinking')} />
            <span className="chat-stage">{stage}</span>
          </div>
        ) : null}
        <div ref={end} />
      </section>

      <p className="chat-notice" role="status">
        {chat.notice ?? ''}
      </p>
      {chat.alerts.length > 0 ? (
        <div className="chat-alerts">
          {chat.alerts.map((item) => (
            <div
              key={item.id}
              className={`chat-alert chat-alert-${item.tone}`}
              role={item.tone === 'error' ? 'alert' : 'status'}
            >
              <span dir="auto">{item.text}</span>
              <button
                type="button"
                className="icon-btn"
                aria-label={t('dismiss')}
                onClick={() => chat.dismissAlert(item.id)}
              >
                ×
              </button>
            </div>
          ))}
        </div>
      ) : null}
      {readOnly === 'visitor' ? (
        <p className="chat-readonly" role="note">
          {t('visitorReadOnly')}
        </p>
      ) : readOnly === 'unknown' ? null : (
        <ChatInput
          value={chat.draft}
          onChange={chat.setDraft}
          onSend={() => void chat.send()}
          busy={chat.busy}
          sending={chat.sending}
          t={t}
        />
      )}
    </main>
  );
}
