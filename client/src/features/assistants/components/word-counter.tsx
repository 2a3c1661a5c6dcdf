import { countWords, limits } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';

/** "n/1000" under a text field; turns red over the limit. */
export function WordCounter({ text, id }: { text: string; id?: string }) {
  const { t } = useTranslation('assistants');
  const count = countWords(text);
  return (
    <span
      id={id}
      className={`counter${count > limits.textFieldWords ? ' counter-over' : ''}`}
      aria-label={t('wordCount', { count })}
    >
      {t('words', { count })}
    </span>
  );
}
