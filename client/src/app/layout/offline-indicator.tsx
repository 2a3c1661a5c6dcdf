import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
};

export function useOnline() {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

export function OfflineIndicator() {
  const { t } = useTranslation('layout');
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-indicator" role="status">
      <span className="dot dot-off" aria-hidden="true" /> {t('offline')}
    </div>
  );
}
