import { type KeyboardEvent, useId, useRef } from 'react';
import type { Translate } from '@/lib/texts';
import { canSend, checkInput, type CounterLevel } from '@/lib/chat-core/input-rules';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Called for Enter and the Send button; the caller decides (and alerts) when the text is invalid. */
  onSend: () => void;
  busy: boolean;
  sending: boolean;
  t: Translate;
}

const counterClass = (level: CounterLevel) =>
  `counter${level === 'error' ? ' counter-over' : level === 'warning' ? ' counter-warn' : ''}`;

/**
 * The message box (§5): live 'n/100 words' and '~n/400 tokens' counters, Send disabled while empty,
 * busy or invalid; Enter sends, Shift+Enter starts a new line.
 */
export function ChatInput({ value, onChange, onSend, busy, sending, t }: Props) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const check = checkInput(value);
  const problem = check.problem
    ? check.problem.kind === 'words'
      ? t('wordLimit', { count: check.problem.count })
      : t('tokenLimit', { count: check.problem.count })
    : null;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };

  return (
    <form
      className="chat-input"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
        // The button disables itself while the answer comes: keep the writer in the box, not on <body>.
        box.current?.focus();
      }}
    >
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {t('messageLabel')}
      </label>
      <div className="chat-input-row">
        <textarea
          ref={box}
          id={`${id}-text`}
          value={value}
          rows={2}
          dir="auto"
          placeholder={t('placeholder')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-counts${problem ? ` ${id}-problem` : ''}`}
          onChange={(event) => onChange(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="btn btn-primary" disabled={!canSend(check, busy)}>
          {sending ? t('sending') : t('send')}
        </button>
      </div>
      <div className="chat-input-meta" id={`${id}-counts`}>
        <span className={counterClass(check.wordLevel)} data-testid="word-counter">
          {t('words', { count: check.words })}
        </span>
        <span className={counterClass(check.tokenLevel)} data-testid="token-counter">
          {t('tokens', { count: check.tokens })}
        </span>
        <span className="chat-input-hint">{t('inputHint')}</span>
      </div>
      {problem ? (
        <p id={`${id}-problem`} className="field-error">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
