import { load, type CheerioAPI } from 'cheerio';

/**
 * Parses a page once for link discovery, sales signals and extraction. htmlparser2 rather than parse5:
 * several times faster and forgiving enough for extraction, which is what a crawler of thousands of
 * pages on two cores needs; we never render, so parse5's exact tree-building buys nothing here.
 */
export function loadHtml(html: string): CheerioAPI {
  return load(html, {
    xml: { xmlMode: false, decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  });
}
