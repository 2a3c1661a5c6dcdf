import { Fragment, memo, useEffect, useId, useRef } from 'react';
import { BidiLines, sourceLabel, visibleText } from '@/lib/chat-core/message-display';
import type { Translate } from '@/lib/texts';
import type { Rating } from '../conversation-store';
import type { EmbedMessage } from '../embed-messages';
import { openRedirect } from '../parent-window';
import { FeedbackButtons } from './feedback-buttons';
import { MessageText } from './message-text';

/*
 * The parts of the embedded chat a new visitor does not see on arrival — the messages, the answer being
 * streamed, the clear confirmation — load when first shown (embed-chat.tsx), so the embed's first load
 * is the header, the welcome card and the input.
 */

interface ItemProps {
  message: EmbedMessage;
  name: string;
  time: Intl.DateTimeFormat;
  onRate: (messageId: string, rating: Rating) => Promise<void>;
  onRateError: () => void;
  t: Translate;
}

/** One bubble with its time; assistant replies from the server carry the like/dislike buttons. */
export const MessageItem = memo(function MessageItem({ message, name, time, onRate, onRateError, t }: ItemProps) {
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
              ) : source.fileId.startsWith('qa_') ? (
                // A curated answer (issue 26): named in the page's language, not by the server's English name.
                <span>{t('ownerAnswer')}</span>
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
export function ClearDialog({
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

/** The answer as it streams in (hidden from screen readers: the finished message is announced). */
export function StreamingBubble({ text }: { text: string }) {
  return (
    <div className="embed-msg embed-msg-assistant embed-streaming" aria-hidden="true">
      <div className="embed-bubble" dir="auto">
        <BidiLines text={visibleText(text)} />
      </div>
    </div>
  );
}
