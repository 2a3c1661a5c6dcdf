import { useTranslation } from 'react-i18next';
import { hasPrompt, togglePrompt } from '../assistant-form-rules';

/** Buttons that add or remove a predefined paragraph; pressed state shows which are in the text. */
export function PromptToggles({
  ids,
  prefix,
  text,
  onChange,
  label,
}: {
  ids: readonly string[];
  prefix: 'sales' | 'common';
  text: string;
  onChange: (text: string) => void;
  label: string;
}) {
  const { t } = useTranslation('assistants');
  return (
    <div className="prompt-toggles" role="group" aria-label={label}>
      {ids.map((id) => {
        const name = t(`${prefix}_${id}`);
        const prompt = t(`${prefix}_${id}_text`);
        const on = hasPrompt(text, prompt);
        return (
          <button
            key={id}
            type="button"
            className={`chip${on ? ' chip-on' : ''}`}
            aria-pressed={on}
            title={t(on ? 'prompt_remove' : 'prompt_add', { label: name })}
            onClick={() => onChange(togglePrompt(text, prompt))}
          >
            {on ? '✓ ' : '+ '}
            {name}
          </button>
        );
      })}
    </div>
  );
}
