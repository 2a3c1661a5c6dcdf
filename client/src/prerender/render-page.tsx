import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { routes } from '@/app/router';
import { i18nextTextSource, initI18n } from '@/lib/i18n';
import { TextSourceProvider } from '@/lib/texts';
import { en } from '@/locales/en';
import { he } from '@/locales/he';

/**
 * Renders a public page of the owner app to HTML at build time, exactly as the app renders it for a
 * signed-out visitor in Hebrew (the default). The server sends that HTML, so the marketing pages paint
 * before any script runs; the app then starts on top of identical markup (see main.tsx).
 */
export async function renderPage(path: string): Promise<string> {
  initI18n({ en, he });
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.local${path}`));
  if (context instanceof Response) throw new Error(`${path} redirected while prerendering (status ${context.status})`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const queryClient = new QueryClient();
  queryClient.setQueryData(['me'], null); // a signed-out visitor: no session to ask about
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <TextSourceProvider value={i18nextTextSource}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </TextSourceProvider>
    </QueryClientProvider>,
  );
}
