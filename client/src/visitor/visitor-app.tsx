import { useMemo } from 'react';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { type Bundles, useTexts } from '@/lib/texts';
import { useLocation } from './location';
import { matchVisitorRoute, visitorRoutes } from './route-table';

const bundles: Bundles = {
  en: { loading: 'Loading...', notFound: 'Page not found.' },
  he: { loading: 'טוען...', notFound: 'הדף לא נמצא.' },
};

// One module per route, created once, so navigating between pages keeps loaded code.
const pageModules = new Map(visitorRoutes.map((route) => [route, lazyModule(route.load)]));

/** The visitor entry's whole "router": match the path, render that page's chunk. */
export function VisitorApp() {
  const { pathname, search } = useLocation();
  const { t } = useTexts('visitor', bundles);
  const matched = useMemo(() => matchVisitorRoute(pathname), [pathname]);
  const page = useLazyModule(matched ? pageModules.get(matched.route)! : null);
  if (!matched) {
    return (
      <main id="main" className="standalone">
        <h1>{t('notFound')}</h1>
      </main>
    );
  }
  if (!page) {
    return (
      <p className="visually-hidden" role="status">
        {t('loading')}
      </p>
    );
  }
  return <page.Component params={matched.params} search={search} />;
}
