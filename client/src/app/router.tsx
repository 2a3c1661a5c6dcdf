import { createBrowserRouter, type RouteObject } from 'react-router';
import { BootScreen } from './layout/boot-screen';
import { RootFrame } from './root-frame';
import { RouteError } from './route-error';

/**
 * The spec's route table (§2), exactly. Every page is a lazy route module, so the first load carries
 * only the frame. The public chat, share-link and embed pages live in the visitor entry (src/visitor)
 * and never download the owner app's code.
 */
function handOverToVisitorEntry({ request }: { request: Request }) {
  const url = new URL(request.url);
  // The server sends the visitor entry for paths under /embed/ (and the others): /embed alone gets its
  // slash, or this document would be loaded again and again.
  if (!/^\/(public-chat|shared-chat|embed)\//.test(url.pathname)) url.pathname += '/';
  window.location.replace(url);
  return new Promise<never>(() => {}); // the document is being replaced; nothing renders meanwhile
}

export const routes: RouteObject[] = [
  {
    Component: RootFrame,
    // Every page is lazy: until the first one's code is in, the router shows this (and does not warn).
    HydrateFallback: BootScreen,
    errorElement: <RouteError />,
    children: [
      {
        // Public and protected pages that share the header/footer layout.
        lazy: async () => ({ Component: (await import('./layout/page-layout')).PageLayout }),
        children: [
          { index: true, lazy: () => import('./routes/home') },
          { path: 'login', lazy: () => import('./routes/login') },
          { path: 'register', lazy: () => import('./routes/register') },
          { path: 'forgot-password', lazy: () => import('./routes/forgot-password') },
          { path: 'reset-password', lazy: () => import('./routes/reset-password') },
          { path: 'verify-email', lazy: () => import('./routes/verify-email') },
          { path: 'about', lazy: () => import('./routes/about') },
          { path: 'features', lazy: () => import('./routes/features') },
          { path: 'pricing', lazy: () => import('./routes/pricing') },
          { path: 'terms', lazy: () => import('./routes/terms') },
          { path: 'privacy', lazy: () => import('./routes/privacy') },
          {
            lazy: async () => ({ Component: (await import('./require-auth')).RequireAuthWithNotice }),
            children: [
              { path: 'dashboard', lazy: () => import('./routes/dashboard') },
              { path: 'create-assistant', lazy: () => import('./routes/create-assistant') },
              { path: 'edit-assistant/:assistantId', lazy: () => import('./routes/edit-assistant') },
              { path: 'analytics', lazy: () => import('./routes/analytics') },
              { path: 'integrations', lazy: () => import('./routes/integrations') },
              { path: 'inbox', lazy: () => import('./routes/inbox') },
              { path: 'workflows', lazy: () => import('./routes/workflows') },
              { path: 'guidelines', lazy: () => import('./routes/guidelines') },
              { path: 'actions', lazy: () => import('./routes/actions') },
              { path: 'billing', lazy: () => import('./routes/billing') },
              // Linked from the user menu: the owner's account settings ("Delete my account").
              { path: 'settings', lazy: () => import('./routes/settings') },
              { path: 'widget-preview/:assistantId', lazy: () => import('./routes/widget-preview') },
            ],
          },
        ],
      },
      // Public pages without the layout.
      { path: 'oauth/callback', lazy: () => import('./routes/oauth-callback') },
      // The visitor pages are a separate entry (visitor.html, src/visitor): a link to them from inside the
      // owner app becomes a document load, which the server answers with that entry.
      { path: 'public-chat/*', loader: handOverToVisitorEntry },
      { path: 'shared-chat/*', loader: handOverToVisitorEntry },
      { path: 'embed/*', loader: handOverToVisitorEntry },
      { path: 'payment/tranzila-test', lazy: () => import('./routes/payment-test') },
      // Protected without the layout.
      {
        lazy: async () => ({ Component: (await import('./require-auth')).RequireAuth }),
        children: [{ path: 'chat/:assistantId/:threadId?', lazy: () => import('./routes/chat') }],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
