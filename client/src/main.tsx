// First: the schemas created by the imports below must not compile parsers (CSP, see zod-jitless).
import './lib/zod-jitless';
import './styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createRouter } from './app/router';
import { initI18n } from './lib/i18n';
import { whenIdle, yieldToMain } from './lib/main-thread';
import { registerServiceWorker } from './lib/pwa';
// The Hebrew of the owner pages' own server texts (Drive, channels, automation); the visitor entry has no need of it.
import './lib/server-texts-more';
import { en } from './locales/en';
import { he } from './locales/he';

type Router = ReturnType<typeof createRouter>;

const routeCodeLoaded = (router: Router) =>
  router.state.initialized
    ? Promise.resolve()
    : new Promise<void>((resolve) => router.subscribe((state) => state.initialized && resolve()));

/**
 * A prerendered page (the server sends about/home with their markup, see scripts/prerender.tsx) stays
 * on screen until the route's code has loaded, and then the app hydrates it: React adopts the DOM that
 * is already there instead of building and laying out the page again. It hydrates as a transition, so
 * the work is done in short slices and a tap during it is still answered at once (a page that was not
 * prerendered renders as a transition too). Setting up the texts
 * and the router are separate tasks for the same reason.
 */
async function start() {
  initI18n({ en, he });
  await yieldToMain();
  const router = createRouter();
  const root = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>
  );
  if (!document.documentElement.dataset.prerendered) {
    // A transition here too: the first render of a signed-in screen (the dashboard) is sliced into short
    // tasks instead of one long one, so the page answers taps while it builds.
    const created = createRoot(root);
    return void startTransition(() => created.render(app));
  }
  await routeCodeLoaded(router);
  startTransition(() => void hydrateRoot(root, app));
}

// The service worker precaches the whole build: that download waits until the page itself is up.
void start()
  .then(() => whenIdle())
  .then(registerServiceWorker);
