import { useEffect, useId, useState } from 'react';
import { localizedDetail } from '@/lib/api-error';
import type { Translate } from '@/lib/texts';
import { FEEDBACK_COMMENT_MAX, FEEDBACK_THANKS_MS, isNetworkError } from '../chat-rules';
import { feedbackMemory, type Rating } from '../feedback-memory';

/** Thumbs up / down (Feather icons, MIT): drawn, so they show wherever no emoji font is installed. */
function Thumb({ down }: { down: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={
          down
            ? 'M10 15v4a3 3 0 0 0 3 3l4-9V2H5.72a2 2 0 0 0-2 1.7l-1.38 9a2 2 0 0 0 2 2.3zm7-13h2.67A2.31 2.31 0 0 1 22 4v7a2.31 2.31 0 0 1-2.33 2H17'
            : 'M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3'
        }
      />
    </svg>
  );
}

interface Props {
  messageId: string;
  onSend: (rating: Rating, comment: string | null) => Promise<void>;
  onError: (text: string) => void;
  t: Translate;
}

/**
 * Like / dislike under an assistant answer (§4): like is sent at once, dislike first offers an optional
 * comment (≤ 500 characters); the choice is remembered per message, the prompt hides once given, and
 * a thanks message shows for 2 s.
 */
export function FeedbackControl({ messageId, onSend, onError, t }: Props) {
  const id = useId();
  const [given, setGiven] = useState<Rating | null>(() => feedbackMemory.get(messageId));
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [thanks, setThanks] = useState(false);

  useEffect(() => {
    if (!thanks) return;
    const timer = setTimeout(() => setThanks(false), FEEDBACK_THANKS_MS);
    return () => clearTimeout(timer);
  }, [thanks]);

  const submit = async (rating: Rating, text: string | null) => {
    setBusy(true);
    try {
      await onSend(rating, text && text.trim() ? text.trim() : null);
      feedbackMemory.set(messageId, rating);
      setGiven(rating);
      setCommenting(false);
      setComment('');
      setThanks(true);
    } catch (error) {
      const detail = localizedDetail(error) ?? t(isNetworkError(error) ? 'errors.network' : 'errors.sendFailed');
      onError(t('feedback.error', { detail }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="chat-feedback">
      {given ? null : <span className="chat-feedback-prompt">{t('feedback.prompt')}</span>}
      <button
        type="button"
        className="icon-btn chat-feedback-btn"
        aria-label={t('feedback.like')}
        aria-pressed={given === 'like'}
        disabled={busy}
        onClick={() => void submit('like', null)}
      >
        <Thumb down={false} />
      </button>
      <button
        type="button"
        className="icon-btn chat-feedback-btn"
        aria-label={t('feedback.dislike')}
        aria-pressed={given === 'dislike'}
        aria-expanded={commenting}
        aria-controls={commenting ? `${id}-comment-form` : undefined}
        disabled={busy}
        onClick={() => setCommenting((open) => !open)}
      >
        <Thumb down />
      </button>
      <span className="chat-feedback-thanks" role="status">
        {thanks ? t('feedback.thanks') : ''}
      </span>
      {commenting ? (
        <form
          id={`${id}-comment-form`}
          className="chat-feedback-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit('dislike', comment);
          }}
        >
          <label htmlFor={`${id}-comment`}>{t('feedback.commentLabel')}</label>
          <textarea
            id={`${id}-comment`}
            value={comment}
            maxLength={FEEDBACK_COMMENT_MAX}
            rows={2}
            dir="auto"
            aria-describedby={`${id}-count`}
            onChange={(event) => setComment(event.currentTarget.value.slice(0, FEEDBACK_COMMENT_MAX))}
          />
          <div className="chat-feedback-actions">
            <span id={`${id}-count`} className="counter">
              {t('feedback.commentCount', { count: comment.length })}
            </span>
            <button type="button" className="btn btn-ghost" onClick={() => setCommenting(false)}>
              {t('feedback.cancel')}
            </button>
            <button type="submit" className="btn btn-secondary" disabled={busy}>
              {t('feedback.submit')}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
