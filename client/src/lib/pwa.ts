/**
 * Service worker registration (vite-plugin-pwa on workbox-window). A new version waits until the owner
 * accepts the prompt; then it takes over and the page reloads into it.
 */
type Apply = () => void;
let pending: Apply | null = null;
const listeners = new Set<(apply: Apply) => void>();

export function onUpdateAvailable(listener: (apply: Apply) => void) {
  listeners.add(listener);
  if (pending) listener(pending);
  return () => void listeners.delete(listener);
}

export async function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const { registerSW } = await import('virtual:pwa-register');
  const update = registerSW({
    onNeedRefresh() {
      pending = () => void update(true);
      listeners.forEach((l) => l(pending!));
    },
  });
}
