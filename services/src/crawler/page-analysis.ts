import { createHash } from 'node:crypto';
import { extractMainContent, type ExtractedContent } from './content-extractor.js';
import { loadHtml } from './html-document.js';
import { discoverLinks, type PageLinks } from './link-discovery.js';
import { decodePage, type DecodedPage } from './page-encoding.js';
import { collectPageSignals, noPageSignals, type PageSignals } from './page-signals.js';
import { detectSalesPage, type SalesPageVerdict } from './sales-page-detector.js';
import { canonicalKey } from './url-normalizer.js';

/** Everything the crawl learns from one HTML page, in one parse. */
export interface HtmlPageAnalysis extends ExtractedContent {
  /** The page's dedup key after its canonical link (same-site canonicals only). */
  canonicalKey: string | null;
  links: PageLinks;
  signals: PageSignals;
  sales: SalesPageVerdict;
  encoding: Omit<DecodedPage, 'text'>;
  /** sha-256 of the extracted text: equal hashes mean the page's knowledge did not change. */
  contentSha256: string;
  /** UTF-8 bytes of the extracted text: what the page adds to the crawl's total. */
  textBytes: number;
}

/**
 * Decode, parse once, then read the page in the order the steps need: links first (extraction removes
 * the navigation they live in), the page's own signals once the furniture is gone (a site-wide newsletter
 * box must not make every page a contact page), then the main content and what kind of page it is.
 */
export function analyzeHtmlPage(input: {
  url: string;
  body: Uint8Array;
  contentTypeHeader: string | null;
  site: string;
}): HtmlPageAnalysis {
  const { text: html, ...encoding } = decodePage(input.body, input.contentTypeHeader);
  const $ = loadHtml(html);
  const links = discoverLinks($, input.url, input.site);
  let signals = noPageSignals;
  const content = extractMainContent($, { onFurnitureRemoved: () => (signals = collectPageSignals($)) });
  const sales = detectSalesPage({
    url: input.url,
    title: content.title,
    headings: content.headings,
    text: content.text,
    signals,
  });
  return {
    ...content,
    canonicalKey: canonicalKey(input.url, links.canonical, input.site),
    links,
    signals,
    sales,
    encoding,
    contentSha256: createHash('sha256').update(content.text).digest('hex'),
    textBytes: Buffer.byteLength(content.text, 'utf8'),
  };
}
