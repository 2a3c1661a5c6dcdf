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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
void registerServiceWorker();
