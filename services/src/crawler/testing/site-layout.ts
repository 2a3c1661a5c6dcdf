/**
 * The furniture of a realistic small-business page, in English or Hebrew: a header with a logo and a
 * navigation bar full of sales words, a cookie banner, an accessibility widget (common on Israeli
 * sites), a sidebar and a footer. Tests wrap their content in it to prove extraction and sales
 * detection look past it. `BOILERPLATE` lists the texts this furniture puts on a page.
 */
export type Wrapper = 'main' | 'article' | 'content-div' | 'bare';

export interface LayoutOptions {
  lang: 'en' | 'he';
  title: string;
  /** The page's own content (inner HTML). */
  content: string;
  head?: string;
  wrapper?: Wrapper;
  sidebar?: boolean;
}

const NAV = {
  en: ['Home', 'Shop', 'Pricing', 'Book now', 'Blog', 'About', 'Contact', 'FAQ'],
  he: ['דף הבית', 'חנות', 'מחירון', 'קביעת תור', 'בלוג', 'אודות', 'צור קשר', 'שאלות נפוצות'],
};
const NAV_PATHS = ['/', '/shop', '/pricing', '/book', '/blog', '/about', '/contact', '/faq'];
const TEXTS = {
  en: {
    brand: 'Crumb & Co.',
    cookie: 'We use cookies to improve your experience and for marketing.',
    accept: 'Accept all',
    footer: '© 2025 Crumb & Co. All rights reserved.',
    footerLinks: ['Privacy policy', 'Terms of service', 'Accessibility statement'],
    footerContact: 'Call us: 03-555-1234 · 12 Herzl St., Tel Aviv',
    newsletter: 'Subscribe to our newsletter for weekly offers',
    sidebar: ['Popular posts', 'Opening hours', 'Gift cards'],
    skip: 'Skip to content',
  },
  he: {
    brand: 'מאפיית השקד',
    cookie: 'אתר זה משתמש בעוגיות לשיפור חוויית הגלישה ולשיווק.',
    accept: 'אישור',
    footer: '© 2025 מאפיית השקד. כל הזכויות שמורות.',
    footerLinks: ['מדיניות פרטיות', 'תקנון האתר', 'הצהרת נגישות'],
    footerContact: 'התקשרו: 03-555-1234 · רחוב הרצל 12, תל אביב',
    newsletter: 'הירשמו לניוזלטר שלנו וקבלו מבצעים שבועיים',
    sidebar: ['פוסטים פופולריים', 'שעות פתיחה', 'כרטיסי מתנה'],
    skip: 'דלג לתוכן',
  },
};

/** Every text the furniture puts on a page, for measureBoilerplate. */
export const BOILERPLATE: readonly string[] = (['en', 'he'] as const).flatMap((lang) => {
  const texts = TEXTS[lang];
  return [
    ...NAV[lang],
    texts.brand,
    texts.cookie,
    texts.accept,
    texts.footer,
    ...texts.footerLinks,
    texts.footerContact,
    texts.newsletter,
    ...texts.sidebar,
    texts.skip,
    lang === 'he' ? 'תפריט נגישות' : 'Accessibility menu',
  ];
});

export function siteLayout(options: LayoutOptions): string {
  const { lang } = options;
  const texts = TEXTS[lang];
  const nav = NAV[lang]
    .map((label, index) => `<li class="menu-item"><a href="${NAV_PATHS[index]}">${label}</a></li>`)
    .join('');
  const sidebar = options.sidebar
    ? `<aside class="widget-area"><h3>${texts.sidebar[0]}</h3><ul><li><a href="/blog/a">${texts.sidebar[1]}</a></li><li><a href="/blog/b">${texts.sidebar[2]}</a></li></ul></aside>`
    : '';
  const wrapped = (() => {
    switch (options.wrapper ?? 'main') {
      case 'main':
        return `<main id="main">${options.content}</main>${sidebar}`;
      case 'article':
        return `<div class="container"><article class="post">${options.content}</article>${sidebar}</div>`;
      case 'content-div':
        return `<div id="page"><div class="site-content" id="content">${options.content}</div>${sidebar}</div>`;
      case 'bare':
        return `<div class="wrapper">${options.content}</div>`;
    }
  })();
  return `<!doctype html>
<html lang="${lang}"${lang === 'he' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><title>${options.title} | ${texts.brand}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/style.css">
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js', new Date());</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"${texts.brand}","url":"https://example.test/"}</script>
${options.head ?? ''}</head>
<body class="page-template">
<a class="skip-link screen-reader-text" href="#main">${texts.skip}</a>
<header class="site-header"><div class="logo"><a href="/">${texts.brand}</a></div>
<nav class="main-navigation" aria-label="Main"><ul class="menu">${nav}</ul></nav></header>
${wrapped}
<div class="newsletter-signup"><p>${texts.newsletter}</p><form><input type="email" name="newsletter_email"><button>OK</button></form></div>
<footer class="site-footer"><p>${texts.footerContact}</p><ul>${texts.footerLinks.map((label) => `<li><a href="/legal">${label}</a></li>`).join('')}</ul><p>${texts.footer}</p></footer>
<div id="cookie-notice" class="cookie-banner"><p>${texts.cookie}</p><button>${texts.accept}</button></div>
<div class="accessibility-widget"><button>${lang === 'he' ? 'תפריט נגישות' : 'Accessibility menu'}</button></div>
<script src="/app.js"></script>
</body></html>`;
}
