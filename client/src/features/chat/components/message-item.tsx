import { Fragment, memo, type ReactNode, useEffect } from 'react';
import type { Translate } from '@/lib/texts';
import type { ChatMessage } from '@/lib/chat-core/chat-messages';
import { BidiLines, sourceLabel, visibleText } from '@/lib/chat-core/message-display';
import { REDIRECT_DELAY_MS } from '../chat-rules';
import type { Rating } from '../feedback-memory';
import { isTempMessage } from '../hooks/use-chat';
import { FeedbackControl } from './feedback-control';

type Target = '_self' | '_blank';

/** Redirects already opened in this page, so a re-render or remount never opens one twice. */
const opened = new Set<string>();

/** Only http(s) addresses become links; trailing punctuation stays text. */
const URL_PATTERN = /https?:\/\/[^\s<>"'\]]+/g;

function linkParts(text: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(/[.,;:!?)]+$/u, '');
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: url, href: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

const relFor = (target: Target) => (target === '_blank' ? 'noopener noreferrer' : undefined);

function LinkedText({ text, target }: { text: string; target: Target }) {
  return (
    <>
      {linkParts(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target={target} rel={relFor(target)} dir="ltr">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * The sales-mode redirect (§4): a 'Visit Link' button; for an answer that has just arrived (never for
 * history) the address also opens by itself after 1 s.
 */
export function RedirectLink({
  messageId,
  url,
  fresh,
  target,
  t,
}: {
  messageId: string;
  url: string;
  fresh: boolean;
  target: Target;
  t: Translate;
}) {
  useEffect(() => {
    if (!fresh || opened.has(messageId)) return;
    const timer = setTimeout(() => {
      opened.add(messageId);
      window.open(url, target, target === '_blank' ? 'noopener,noreferrer' : undefined);
    }, REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fresh, messageId, url, target]);
  return (
    <a className="btn btn-secondary chat-visit" href={url} target={target} rel={relFor(target)}>
      {t('visitLink')}
      {target === '_blank' ? <span className="visually-hidden"> {t('opensNewTab')}</span> : null}
    </a>
  );
}

interface Props {
  message: ChatMessage;
  fresh: boolean;
  target: Target;
  onFeedback: (messageId: string, rating: Rating, comment: string | null) => Promise<void>;
  onAlert: (text: string, tone?: 'error' | 'info') => void;
  /** False when the owner reads a visitor's conversation: the rating is the visitor's to give. */
  rateable?: boolean;
  /** The page's note under a saved answer (see ChatScreen's messageNote). */
  note?: (message: ChatMessage, fresh: boolean) => ReactNode;
  t: Translate;
}

/** One message: the user's text, or the answer with its sources, redirect button and feedback. */
export const MessageItem = memo(function MessageItem({
  message,
  fresh,
  target,
  onFeedback,
  onAlert,
  rateable = true,
  note,
  t,
}: Props) {
  const fromAssistant = message.role === 'assistant';
  return (
    <li className={`chat-msg chat-msg-${message.role}`}>
      <span className="visually-hidden">{fromAssistant ? t('assistant') : t('you')}: </span>
      <div className="chat-bubble" dir="auto">
        {fromAssistant ? (
          <BidiLines
            text={visibleText(message.text)}
            renderLine={(line) => <LinkedText text={line} target={target} />}
          />
        ) : (
          <BidiLines text={message.text} />
        )}
      </div>
      {fromAssistant && message.sources.length > 0 ? (
        <p className="chat-sources">
          {t('sources')}:{' '}
          {message.sources.map((source, i) => (
            <Fragment key={`${source.fileId}-${i}`}>
              {i > 0 ? ', ' : null}
              {/* Named as a person knows it (the page, the file's own name), never by an internal name or id. */}
              {source.sourceUrl ? (
                <a href={source.sourceUrl} target={target} rel={relFor(target)} dir="auto" title={source.sourceUrl}>
                  {sourceLabel(source)}
                </a>
              ) : source.fileId.startsWith('qa_') ? (
                // A curated answer (issue 26): the owner's own words, named in the reader's language.
                <span>{t('ownerAnswer')}</span>
              ) : (
                <button
                  type="button"
                  className="link-btn"
                  dir="auto"
                  onClick={() => onAlert(t('sourceInFile', { name: sourceLabel(source) }), 'info')}
                >
                  {sourceLabel(source)}
                </button>
              )}
            </Fragment>
          ))}
        </p>
      ) : null}
      {fromAssistant && message.redirectUrl ? (
        <RedirectLink messageId={message.id} url={message.redirectUrl} fresh={fresh} target={target} t={t} />
      ) : null}
      {fromAssistant && note && !isTempMessage(message) && message.id ? note(message, fresh) : null}
      {fromAssistant && rateable && !isTempMessage(message) && message.id ? (
        <FeedbackControl
          messageId={message.id}
          onSend={(rating, comment) => onFeedback(message.id, rating, comment)}
          onError={onAlert}
          t={t}
        />
      ) : null}
    </li>
  );
});
