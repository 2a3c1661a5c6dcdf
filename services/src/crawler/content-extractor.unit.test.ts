import { describe, expect, it } from 'vitest';
import { extractMainContent, measureBoilerplate } from './content-extractor.js';
import { labelledPages } from './fixtures/labelled-pages.js';
import { realisticPages } from './fixtures/realistic-pages.js';
import { loadHtml } from './html-document.js';
import { analyzeHtmlPage } from './page-analysis.js';
import { BOILERPLATE } from './testing/site-layout.js';
import { encodeWindows1255 } from './testing/windows-1255.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');

describe('main-content extraction on realistic pages', () => {
  it.each(realisticPages.map((page) => [page.name, page] as const))(
    '%s: keeps the content, drops the furniture',
    (_name, page) => {
      const extracted = extractMainContent(loadHtml(page.html));
      for (const sentence of page.keep) expect(squash(extracted.text)).toContain(sentence);
      const { ratio } = measureBoilerplate(extracted.text, page.boilerplate);
      expect(ratio).toBeLessThanOrEqual(0.05);
    },
  );

  it('measures the boilerplate ratio over all realistic and labelled pages (goal ≤ 5 %)', () => {
    let boilerplate = 0;
    let total = 0;
    for (const page of realisticPages) {
      const measured = measureBoilerplate(extractMainContent(loadHtml(page.html)).text, page.boilerplate);
      boilerplate += measured.boilerplateCharacters;
      total += measured.totalCharacters;
    }
    for (const page of labelledPages) {
      const measured = measureBoilerplate(extractMainContent(loadHtml(page.html)).text, BOILERPLATE);
      boilerplate += measured.boilerplateCharacters;
      total += measured.totalCharacters;
    }
    console.info(
      `extraction_boilerplate_ratio ${(boilerplate / total).toFixed(4)} over ${realisticPages.length + labelledPages.length} pages (${total} characters)`,
    );
    expect(boilerplate / total).toBeLessThanOrEqual(0.05);
  });

  it('would fail without extraction: the raw body text is mostly furniture on these pages', () => {
    const page = realisticPages[0]!;
    const raw = loadHtml(page.html)('body').text();
    expect(measureBoilerplate(raw.replace(/\s{2,}/g, '\n'), page.boilerplate).ratio).toBeGreaterThan(0.2);
  });

  it('keeps a heading inside an article header, and table rows on one line', () => {
    const clinic = extractMainContent(loadHtml(realisticPages[0]!.html));
    expect(clinic.headings[0]).toBe('Sourdough classes for beginners');
    expect(clinic.root).toBe('main');
    const yoga = realisticPages.find((page) => page.name.startsWith('Hebrew yoga'))!;
    const analysis = analyzeHtmlPage({
      url: yoga.url,
      body: encodeWindows1255(yoga.html),
      contentTypeHeader: 'text/html',
      site: 'yoga.example',
    });
    expect(analysis.encoding).toMatchObject({ encoding: 'windows-1255', source: 'meta' });
    expect(analysis.text).toContain('ויניאסה | 07:00 | נועה');
    expect(analysis.language).toBe('he');
  });

  it('gives title, description and language, and clean HTML for the ingestion', () => {
    const law = realisticPages.find((page) => page.name.startsWith('Hebrew law'))!;
    const extracted = extractMainContent(loadHtml(law.html));
    expect(extracted.title).toBe('ירושה ללא צוואה – מה חשוב לדעת | לוי ושות׳');
    expect(extracted.description).toBe('מה קורה כשאין צוואה');
    expect(extracted.language).toBe('he');
    expect(extracted.mainHtml).toContain('<h1>מה קורה כשאין צוואה?</h1>');
    expect(extracted.mainHtml).not.toContain('<script');
    expect(extracted.mainHtml).not.toContain('עוגיות');
  });

  it('does not mistake a bakery paragraph about cookies for a cookie banner', () => {
    const html = `<html><body><main><h1>Butter cookies</h1><div><p>Our butter cookies are baked daily. We accept orders of cookies for events.</p><a href="/order">Order cookies</a></div></main></body></html>`;
    expect(extractMainContent(loadHtml(html)).text).toContain('Our butter cookies are baked daily.');
  });
});
