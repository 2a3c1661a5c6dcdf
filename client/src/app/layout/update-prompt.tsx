import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { onUpdateAvailable } from '@/lib/pwa';

/** Shown when a new service worker waits; accepting reloads into the new version. */
export function UpdatePrompt() {
  const { t } = useTranslation('layout');
  const [apply, setApply] = useState<(() => void) | null>(null);
  useEffect(() => onUpdateAvailable((update) => setApply(() => update)), []);
  if (!apply) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-labelledby="update-text">
      <p id="update-text">{t('updateAvailable')}</p>
      <Button onClick={apply}>{t('updateNow')}</Button>
      <Button variant="ghost" onClick={() => setApply(null)}>
        {t('later')}
      </Button>
    </div>
  );
}
