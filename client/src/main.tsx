import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createRouter } from './app/router';
import { initI18n } from './lib/i18n';
import { registerServiceWorker } from './lib/pwa';
import { en } from './locales/en';
import { he } from './locales/he';

initI18n({ en, he });
const router = createRouter();

/**
 * A prerendered page (the server sends about/home with their markup, see scripts/prerender.tsx) stays
 * on screen until the route's code has loaded, so the app replaces it with identical markup in one
 * commit instead of blanking it while lazy modules arrive.
 */
const routeCodeLoaded = () =>
  router.state.initialized ? Promise.resolve() : new Promise<void>((resolve) => router.subscribe((state) => state.initialized && resolve()));

async function start() {
  if (document.documentElement.dataset.prerendered) await routeCodeLoaded();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
}
void start();
void registerServiceWorker();
