import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SitemapError, parseSitemap, sitemapText } from './sitemap.js';

describe('sitemaps', () => {
  it('reads a urlset with lastmod, entities and namespace prefixes', () => {
    const parsed = parseSitemap(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.test/</loc><lastmod>2025-01-02</lastmod></url>
  <url><loc> https://example.test/list?a=1&amp;b=2 </loc><image:image><image:loc>https://example.test/x.jpg</image:loc></image:image></url>
  <url><loc></loc></url>
</urlset>`);
    expect(parsed).toEqual({
      kind: 'urlset',
      truncated: false,
      entries: [
        { url: 'https://example.test/', lastmod: '2025-01-02' },
        { url: 'https://example.test/list?a=1&b=2', lastmod: null },
      ],
    });
  });

  it('reads a sitemap index', () => {
    const parsed = parseSitemap(
      '<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://example.test/a.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>',
    );
    expect(parsed.kind).toBe('index');
    expect(parsed.entries.map((entry) => entry.url)).toEqual(['https://example.test/a.xml.gz']);
  });

  it('reads plain-text sitemaps and stops at the entry limit', () => {
    const text = Array.from({ length: 5 }, (_unused, i) => `https://example.test/${i}`).join('\n');
    expect(parseSitemap(text, { maxEntries: 3 })).toMatchObject({ kind: 'text', truncated: true });
    expect(parseSitemap(text, { maxEntries: 3 }).entries).toHaveLength(3);
    const xml = `<urlset>${Array.from({ length: 5 }, (_unused, i) => `<url><loc>https://example.test/${i}</loc></url>`).join('')}</urlset>`;
    expect(parseSitemap(xml, { maxEntries: 2 })).toMatchObject({
      truncated: true,
      entries: [{ url: 'https://example.test/0' }, { url: 'https://example.test/1' }],
    });
    expect(parseSitemap('<html><body>not a sitemap</body></html>').kind).toBe('unknown');
  });

  it('inflates gzip by its magic bytes, within a bound', () => {
    const xml = '<urlset><url><loc>https://example.test/he/%D7%90</loc></url></urlset>';
    expect(parseSitemap(sitemapText(gzipSync(xml))).entries[0]!.url).toBe('https://example.test/he/%D7%90');
    // A bomb: 16 MB of spaces in a few KB; refused at the 1 MB bound without inflating it all.
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024, ' '));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect(() => sitemapText(bomb, 1024 * 1024)).toThrow(SitemapError);
    expect(() => sitemapText(bomb, 1024 * 1024)).toThrow('The sitemap unpacks to more than 1 MB and was not read.');
  });

  it('reads what arrived of a truncated gzip download', () => {
    const xml = `<urlset>${Array.from({ length: 2000 }, (_unused, i) => `<url><loc>https://example.test/page-${i}</loc></url>`).join('')}</urlset>`;
    const zipped = gzipSync(xml);
    const parsed = parseSitemap(sitemapText(zipped.subarray(0, Math.floor(zipped.byteLength / 2))));
    expect(parsed.entries.length).toBeGreaterThan(100);
    expect(parsed.entries.length).toBeLessThan(2000);
    expect(parsed.entries[0]!.url).toBe('https://example.test/page-0');
    expect(() => sitemapText(Uint8Array.from([0x1f, 0x8b, 1, 2, 3]))).toThrow(
      'The sitemap is not valid gzip and was not read.',
    );
  });
});
