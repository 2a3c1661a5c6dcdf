import { type KeyboardEvent, useId } from 'react';
import { checkInput, type CounterLevel, inputProblemText } from '@/lib/chat-core/input-rules';
import type { Translate } from '@/lib/texts';

/** Counter warnings (spec §5, §9): above 80 words / 320 tokens; errors above 100 / 400. */
const counterClass = (level: CounterLevel) =>
  `counter${level === 'error' ? ' counter-over' : level === 'warning' ? ' counter-warn' : ''}`;

interface Props {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** A reply is pending, or there is no thread: Send does nothing. */
  blocked: boolean;
  t: Translate;
}

/**
 * The message box: live 'n/100 words' and '~n/400 tokens' counters; Enter sends, Shift+Enter adds a
 * line. An over-long text stays sendable so that pressing Send explains the rule (in the alert above
 * and under the input) rather than doing nothing.
 */
export function EmbedInput({ value, onChange, onSend, blocked, t }: Props) {
  const id = useId();
  const check = checkInput(value);
  const { words, tokens } = check;
  const problem = inputProblemText(check, t);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };

  return (
    <form
      className="embed-input"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {t('messageLabel')}
      </label>
      <div className="embed-input-row">
        <textarea
          id={`${id}-text`}
          value={value}
          rows={1}
          dir="auto"
          placeholder={t('placeholder')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-counts${problem ? ` ${id}-problem` : ''}`}
          onChange={(event) => onChange(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="btn btn-primary" disabled={blocked || value.trim() === ''}>
          {t('send')}
        </button>
      </div>
      <div className="embed-input-meta" id={`${id}-counts`}>
        <span className={counterClass(check.wordLevel)}>{t('words', { count: words })}</span>
        <span className={counterClass(check.tokenLevel)}>{t('tokens', { count: tokens })}</span>
        <span className="embed-input-hint">{t('inputHint')}</span>
      </div>
      {problem ? (
        <p id={`${id}-problem`} className="field-error">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
