import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { Footer } from './footer';
import { Header } from './header';

/** The shared page layout: header, main content, footer. Scrolls to an anchor (e.g. /about#faq) or the top. */
export function PageLayout() {
  const { t } = useTranslation();
  const { pathname, hash } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    const first = firstRender.current;
    firstRender.current = false;
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    // Only a navigation goes back to the top: on the first render the page is where the reader left it
    // (a prerendered landing page is read, and scrolled, before the app takes it over).
    else if (!first) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </>
  );
}
