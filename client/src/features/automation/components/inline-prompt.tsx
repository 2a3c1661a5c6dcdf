import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

interface Props {
  label: string;
  addLabel: string;
  /** Returns an error text to show, or null when the value was taken. */
  onAdd: (value: string) => string | null;
  inputMode?: 'text' | 'url';
}

/**
 * Spec §2 adds inputs and sources "via a prompt" asking for the name or URL: the prompt is inline (a
 * field and Add) rather than window.prompt, so it is labelled, translated and usable on a phone.
 */
export function InlinePrompt({ label, addLabel, onAdd, inputMode = 'text' }: Props) {
  const { t } = useTranslation('automation');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!open)
    return (
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {addLabel}
      </Button>
    );
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!value.trim()) return setOpen(false);
    const problem = onAdd(value.trim());
    setError(problem);
    if (!problem) {
      setValue('');
      setOpen(false);
    }
  };
  return (
    <div className="automation-prompt">
      <label htmlFor={id}>{label}</label>
      <div className="automation-row">
        <input
          id={id}
          autoFocus
          type={inputMode === 'url' ? 'url' : 'text'}
          dir="ltr"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            // Inside the modal's form: Enter adds to the list instead of saving the action.
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
        />
        <Button variant="secondary" onClick={() => submit()}>
          {addLabel}
        </Button>
        <Button variant="ghost" onClick={() => (setOpen(false), setError(null), setValue(''))}>
          {t('cancel')}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
