/** Notifications (spec §3: id, type, message, duration) in a tiny store the toast area subscribes to. */
export type ToastType = 'success' | 'error' | 'warning' | 'info';
export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  duration: number;
}

export const TOAST_MS = 5000;
export const ERROR_TOAST_MS = 7000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const toastStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: () => toasts,
  dismiss(id: number) {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  },
  show(type: ToastType, message: string, duration = type === 'error' ? ERROR_TOAST_MS : TOAST_MS) {
    const toast = { id: nextId++, type, message, duration };
    toasts = [...toasts, toast];
    emit();
    setTimeout(() => toastStore.dismiss(toast.id), duration);
    return toast.id;
  },
};

export const notify = {
  success: (message: string) => toastStore.show('success', message),
  error: (message: string) => toastStore.show('error', message),
  warning: (message: string) => toastStore.show('warning', message),
  info: (message: string) => toastStore.show('info', message),
};
