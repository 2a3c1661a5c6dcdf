import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { toastStore } from '@/lib/toast-store';

/** The toast area (spec §2): errors are announced assertively, the rest politely. */
export function ToastArea() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.snapshot, toastStore.snapshot);
  return (
    <section className="toasts" aria-label={t('common:notifications')}>
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'}>
          <span>{toast.message}</span>
          <button
            type="button"
            className="icon-btn"
            onClick={() => toastStore.dismiss(toast.id)}
            aria-label={t('common:dismiss')}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
