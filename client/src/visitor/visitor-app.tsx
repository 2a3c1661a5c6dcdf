import { type ComponentType, lazy, Suspense, useMemo } from 'react';
import { type Bundles, useTexts } from '@/lib/texts';
import { useLocation } from './location';
import { matchVisitorRoute, type VisitorPageProps, visitorRoutes } from './route-table';

const bundles: Bundles = {
  en: { loading: 'Loading...', notFound: 'Page not found.' },
  he: { loading: 'טוען...', notFound: 'הדף לא נמצא.' },
};

// One lazy component per route, created once, so navigating between pages keeps loaded code.
const lazyPages = new Map<(typeof visitorRoutes)[number], ComponentType<VisitorPageProps>>(
  visitorRoutes.map((route) => [route, lazy(async () => ({ default: (await route.load()).Component }))]),
);

/** The visitor entry's whole "router": match the path, render that page's chunk. */
export function VisitorApp() {
  const { pathname, search } = useLocation();
  const { t } = useTexts('visitor', bundles);
  const matched = useMemo(() => matchVisitorRoute(pathname), [pathname]);
  if (!matched) {
    return (
      <main id="main" className="standalone">
        <h1>{t('notFound')}</h1>
      </main>
    );
  }
  const Page = lazyPages.get(matched.route)!;
  return (
    <Suspense
      fallback={
        <p className="visually-hidden" role="status">
          {t('loading')}
        </p>
      }
    >
      <Page params={matched.params} search={search} />
    </Suspense>
  );
}
