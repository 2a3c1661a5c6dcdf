import { useSyncExternalStore } from 'react';

/**
 * Navigation for the visitor pages: the History API and one hook. The owner app's router is not
 * loaded here; three routes do not need it, and every kilobyte counts inside a customer's website.
 */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

export function navigate(to: string, options: { replace?: boolean } = {}) {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

const current = () => `${location.pathname}${location.search}`;

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current path and query; re-renders on navigate() and on the browser's back/forward. */
export function useLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, current, current);
  const at = href.indexOf('?');
  return at < 0 ? { pathname: href, search: '' } : { pathname: href.slice(0, at), search: href.slice(at) };
}
