// No lib/zod-jitless here: the visitor pages read the server's answers by hand and have no zod to
// configure (vite.visitor.config.ts refuses to build one that imports it).
import '../styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBundleTextSource, TextSourceProvider } from '@/lib/texts';
import { VisitorApp } from './visitor-app';

/**
 * The visitor entry (visitor.html): the pages an anonymous visitor opens — the public chat, the share
 * link and the embed frame inside a customer's website. Its own small bundle: React and the chat, none
 * of the owner app's router, query cache, i18n runtime or service worker.
 */
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <TextSourceProvider value={createBundleTextSource()}>
      <VisitorApp />
    </TextSourceProvider>
  </StrictMode>,
);
