import { describe, expect, it } from 'vitest';
import { loadHtml } from './html-document.js';
import { discoverLinks } from './link-discovery.js';

describe('link discovery', () => {
  const html = `<html><head><base href="https://www.example.test/he/"><link rel="canonical" href="/he/about"><link rel="alternate" hreflang="en" href="https://www.example.test/en/about"></head><body>
  <nav><a href="pricing">מחירון</a><a href="/he/pricing#plans">Pricing again</a><a href="https://shop.example.test/cart">Cart</a></nav>
  <a href="https://facebook.com/x">fb</a><a href="mailto:a@example.test">mail</a><a href="tel:+972">call</a><a href="javascript:void(0)">js</a>
  <a href="/files/menu.pdf">Menu (PDF)</a><a href="/img/logo.png">logo</a><a href="/feed.xml">rss</a>
  <a href="/he/blog?utm_source=x" rel="nofollow"><img alt="Our blog" src="b.png"></a></body></html>`;

  it('finds same-site pages once each, with their words, resolving <base href>', () => {
    const found = discoverLinks(loadHtml(html), 'https://www.example.test/he/about?ref=1', 'example.test');
    expect(found.links.map((link) => [link.url, link.text])).toEqual([
      ['https://www.example.test/en/about', ''],
      ['https://www.example.test/he/pricing', 'מחירון'],
      ['https://shop.example.test/cart', 'Cart'],
      ['https://www.example.test/files/menu.pdf', 'Menu (PDF)'],
      ['https://www.example.test/he/blog?utm_source=x', 'Our blog'],
    ]);
    expect(found.links.at(-1)).toMatchObject({ key: 'https://www.example.test/he/blog', nofollow: true });
    expect(found.canonical).toBe('https://www.example.test/he/about');
    expect(found.ignored).toBe(6);
  });

  it('obeys <meta name="robots" content="nofollow">', () => {
    const found = discoverLinks(
      loadHtml('<head><meta name="robots" content="noindex, nofollow"></head><body><a href="/a">a</a></body>'),
      'https://example.test/',
      'example.test',
    );
    expect(found).toMatchObject({ links: [], robots: { noindex: true, nofollow: true } });
  });
});
