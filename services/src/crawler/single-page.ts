import type { PageDiscovered, PageFetched, PageScored } from '@kesher/contracts';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import type { OutboundFetch, OutboundResponse } from '../outbound/index.js';
import { defaultCrawlLimits, type PageKind } from './crawl-runner.js';
import { analyzeHtmlPage } from './page-analysis.js';
import { scoreRelevance, type AssistantKeywords } from './relevance-scorer.js';
import { fetchableUrl, normalizeUrl, siteOf } from './url-normalizer.js';

/** Why one page could not be added (Add Missing Page): a sentence for the owner. */
export class SinglePageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SinglePageError';
  }
}

const DOCUMENTS: Record<string, PageKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'txt',
};

function kindOf(response: OutboundResponse): PageKind | null {
  const type = response.contentType;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type && DOCUMENTS[type]) return DOCUMENTS[type]!;
  const path = new URL(response.url).pathname.toLowerCase();
  if (path.endsWith('.pdf')) return 'pdf';
  if (path.endsWith('.docx')) return 'docx';
  const head = Buffer.from(response.body.subarray(0, 256)).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') ? 'html' : null;
}

/**
 * One page fetched on the owner's request (Add Missing Page), read the way the crawl reads pages —
 * through the guarded fetch, 300 KB at most, main content, sales verdict, relevance — and stored like a
 * crawl's page, so that it joins a preview and is committed with it. Robots.txt is not asked: the owner
 * named this very page.
 */
export async function fetchSinglePage(
  deps: { fetch: OutboundFetch; blobs: Pick<BlobStore, 'put'> },
  input: { url: string; crawlId: string; holder: string; keywords: AssistantKeywords },
): Promise<{ discovered: PageDiscovered; fetched: PageFetched; scored: PageScored; text: string }> {
  const url = fetchableUrl(input.url);
  const key = url ? normalizeUrl(url) : null;
  if (!url || !key) throw new SinglePageError('Please enter a valid URL (including http:// or https://)');
  const response = await deps.fetch({
    url,
    maxBytes: defaultCrawlLimits.pageMaxBytes,
    timeoutMs: defaultCrawlLimits.pageTimeoutMs,
  });
  if (response.status === 404 || response.status === 410)
    throw new SinglePageError(`The page was not found (${response.status}).`);
  if (response.status < 200 || response.status >= 300)
    throw new SinglePageError(`The page answered ${response.status}.`);
  const kind = kindOf(response);
  if (!kind) throw new SinglePageError(`${response.contentType ?? 'This content type'} is not a page Kesher can read.`);
  const put = async (bytes: Uint8Array) => (await deps.blobs.put(bytes, { holder: input.holder })).sha256;
  const note = response.truncated ? 'The page is larger than 300 KB; only its first 300 KB were read.' : null;
  const base = {
    crawlId: input.crawlId,
    url,
    finalUrl: response.url,
    key,
    depth: 0,
    status: response.status,
    notModified: false,
    kind,
    truncated: response.truncated,
    note,
    etag: response.headers.etag?.slice(0, 500) ?? null,
    lastModified: response.headers['last-modified']?.slice(0, 100) ?? null,
  };
  let fetched: PageFetched;
  let text = '';
  let headings: readonly string[] = [];
  if (kind === 'html') {
    const html = analyzeHtmlPage({
      url: response.url,
      body: response.body,
      contentTypeHeader: response.headers['content-type'] ?? null,
      site: siteOf(url),
    });
    if (html.text.length === 0) throw new SinglePageError('The page has no text.');
    text = html.text;
    headings = html.headings;
    fetched = {
      ...base,
      title: html.title?.slice(0, 500) ?? null,
      language: html.language,
      characters: html.text.length,
      bytes: html.textBytes,
      contentSha256: await put(new TextEncoder().encode(html.text)),
      htmlSha256: await put(new TextEncoder().encode(html.mainHtml)),
      isSalesPage: html.sales.isSalesPage,
      salesCategory: html.sales.category,
      detectionReason: html.sales.reason.slice(0, 500),
      links: [],
    };
  } else {
    fetched = {
      ...base,
      title: decodeURIComponent(new URL(response.url).pathname.split('/').pop() || '') || null,
      language: null,
      characters: 0,
      bytes: response.body.byteLength,
      contentSha256: await put(response.body),
      htmlSha256: null,
      isSalesPage: false,
      salesCategory: null,
      detectionReason: null,
      links: [],
    };
  }
  const score = scoreRelevance(
    { depth: 0, inboundLinks: 0, contentCharacters: text.length, title: fetched.title, headings, text },
    { keywords: input.keywords, maxInboundLinks: 0 },
  );
  return {
    discovered: { crawlId: input.crawlId, url, key, depth: 0, source: 'manual', fromUrl: null },
    fetched,
    scored: {
      crawlId: input.crawlId,
      key,
      relevanceScore: Math.min(1, Math.max(0, score.score)),
      explanation: `added by the owner; ${score.explanation}`.slice(0, 1000),
    },
    text,
  };
}
