import { describe, expect, it } from 'vitest';
import { canonicalKey, fetchableUrl, isSameSite, normalizeUrl, siteOf } from './url-normalizer.js';

describe('URL normalisation', () => {
  it('gives every spelling of one page the same key', () => {
    const spellings = [
      'https://Example.TEST/about',
      'https://example.test:443/about/',
      'https://example.test/about#team',
      'https://example.test./about?utm_source=newsletter&utm_medium=email',
      'https://example.test//about?fbclid=abc&gclid=x',
      'https://example.test/ab%6Fut',
      'https://example.test/about;jsessionid=1234',
    ];
    expect(new Set(spellings.map((url) => normalizeUrl(url))).size).toBe(1);
    expect(normalizeUrl(spellings[0]!)).toBe('https://example.test/about');
  });

  it('sorts the query and keeps the parameters that change the page', () => {
    expect(normalizeUrl('http://example.test/list?page=2&sort=price&utm_campaign=x')).toBe(
      'http://example.test/list?page=2&sort=price',
    );
    expect(normalizeUrl('http://example.test/list?sort=price&page=2')).toBe(
      'http://example.test/list?page=2&sort=price',
    );
    expect(normalizeUrl('http://example.test/list?')).toBe('http://example.test/list');
    expect(normalizeUrl('http://example.test:8080/')).toBe('http://example.test:8080/');
  });

  it('keeps Hebrew paths as escapes in one case', () => {
    expect(normalizeUrl('https://example.test/צור-קשר/')).toBe(
      'https://example.test/%D7%A6%D7%95%D7%A8-%D7%A7%D7%A9%D7%A8',
    );
    expect(normalizeUrl('https://example.test/%d7%a6%d7%95%d7%a8-%d7%a7%d7%a9%d7%a8')).toBe(
      'https://example.test/%D7%A6%D7%95%D7%A8-%D7%A7%D7%A9%D7%A8',
    );
  });

  it('resolves relative links and refuses what is never crawled', () => {
    expect(normalizeUrl('../pricing', 'https://example.test/he/about/')).toBe('https://example.test/he/pricing');
    for (const bad of [
      'mailto:a@b.test',
      'javascript:void(0)',
      'ftp://example.test/',
      'https://user:pw@example.test/',
      'http://',
      'not a url',
    ])
      expect(normalizeUrl(bad)).toBeNull();
    expect(fetchableUrl('/a/b/#x', 'https://example.test/')).toBe('https://example.test/a/b/');
  });

  it('keeps a crawl on its site: the host and its subdomains, with or without www', () => {
    const site = siteOf('https://www.example.test/');
    expect(site).toBe('example.test');
    expect(isSameSite('https://example.test/x', site)).toBe(true);
    expect(isSameSite('http://shop.example.test/x', site)).toBe(true);
    expect(isSameSite('https://notexample.test/x', site)).toBe(false);
    expect(isSameSite('https://example.test.evil.test/x', site)).toBe(false);
    expect(isSameSite('https://other.wixsite.test/', siteOf('https://mine.wixsite.test/'))).toBe(false);
  });

  it('follows a same-site canonical link and ignores one that leaves the site', () => {
    expect(canonicalKey('https://example.test/p?id=1&ref=x', '/products/mug', 'example.test')).toBe(
      'https://example.test/products/mug',
    );
    expect(canonicalKey('https://example.test/p', 'https://medium.test/copy', 'example.test')).toBe(
      'https://example.test/p',
    );
    expect(canonicalKey('https://example.test/p/', null, 'example.test')).toBe('https://example.test/p');
  });
});
