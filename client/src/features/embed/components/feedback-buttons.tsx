import { useEffect, useState } from 'react';
import type { Translate } from '@/lib/texts';
import type { Rating } from '../conversation-store';
import { Icon } from '@/components/ui/icon';

/** The thanks line shows for 2 s (spec part 1 §4). */
export const FEEDBACK_THANKS_MS = 2000;

interface Props {
  given: Rating | null;
  onRate: (rating: Rating) => Promise<void>;
  onError: () => void;
  t: Translate;
}

/** Like / dislike under an assistant reply (spec part 2 §2); a second choice replaces the first. */
export function FeedbackButtons({ given, onRate, onError, t }: Props) {
  const [busy, setBusy] = useState(false);
  const [thanks, setThanks] = useState(false);

  useEffect(() => {
    if (!thanks) return;
    const timer = setTimeout(() => setThanks(false), FEEDBACK_THANKS_MS);
    return () => clearTimeout(timer);
  }, [thanks]);

  const rate = async (rating: Rating) => {
    setBusy(true);
    try {
      await onRate(rating);
      setThanks(true);
    } catch {
      onError();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="embed-feedback" role="group" aria-label={t('feedbackGroup')}>
      <button
        type="button"
        className="icon-btn embed-feedback-btn"
        aria-label={t('like')}
        aria-pressed={given === 'like'}
        disabled={busy}
        onClick={() => void rate('like')}
      >
        <Icon name="up" />
      </button>
      <button
        type="button"
        className="icon-btn embed-feedback-btn"
        aria-label={t('dislike')}
        aria-pressed={given === 'dislike'}
        disabled={busy}
        onClick={() => void rate('dislike')}
      >
        <Icon name="down" />
      </button>
      <span className="embed-feedback-thanks" role="status">
        {thanks ? t('feedbackThanks') : ''}
      </span>
    </div>
  );
}
