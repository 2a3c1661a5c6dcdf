import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { i18nextTextSource, initI18n } from '@/lib/i18n';
import { TextSourceProvider } from '@/lib/texts';
import { en } from '@/locales/en';
import { he } from '@/locales/he';

export const i18n = initI18n({ en, he });

/** Renders routes in a memory router with a fresh query cache, in the given language. */
export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

export function renderRoutes(
  routes: RouteObject[],
  {
    path = '/',
    language = 'en',
    queryClient = testQueryClient(),
  }: { path?: string; language?: 'en' | 'he'; queryClient?: QueryClient } = {},
) {
  void i18n.changeLanguage(language);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <TextSourceProvider value={i18nextTextSource}>
        <RouterProvider router={router} />
      </TextSourceProvider>
    </QueryClientProvider>,
  );
  return { ...utils, router, queryClient };
}

export function renderWithProviders(
  ui: ReactNode,
  options?: { path?: string; language?: 'en' | 'he'; queryClient?: QueryClient },
) {
  return renderRoutes([{ path: '*', element: ui }], options);
}
