import { PAGES_DISCOVERED_MAX, type PageFetched } from '@kesher/contracts';
import type { CrawledPage, CrawlEvent } from '../../crawler/index.js';
import type { CrawlProgressEvent } from '../../domain/crawl/crawl.decider.js';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';

/** What the relevance score reads of a page kept in this run (its text is in the blob store too). */
export interface PageText {
  headings: readonly string[];
  text: string;
}

export interface CrawlRecordingDeps {
  crawlId: string;
  blobs: Pick<BlobStore, 'put'>;
  /** Who holds the blobs the crawl stores (the crawl; committed pages then hold their own). */
  holder: string;
  /** A recrawl's pages as the assistant holds them: a 304 carries their content hash on. */
  knownContent?: ReadonlyMap<string, string>;
  /** Appends a batch (the crawl's stream writer). */
  append: (events: readonly CrawlProgressEvent[]) => Promise<void>;
  /** A batch is appended at this many events, or this long after its first event (checkpoints of a restart). */
  batchEvents?: number;
  batchMs?: number;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const MAX_URL = 4096;
/**
 * Links a page's event keeps for the link graph (the inbound-link score): the first the crawl follows.
 * A page's links are most of what a crawl records beyond its text, so they are bounded per page.
 */
export const RECORDED_LINKS_PER_PAGE = 100;

/**
 * Turns what runCrawl reports into the crawl's events and records them in batches: a page's content
 * goes to the blob store first (text and clean HTML for a web page, the bytes of a document) and its
 * event carries the hashes. Addresses found one after another from the same page (or sitemap) share one
 * PagesDiscovered event, so the frontier costs an event per page, not per link. Events are appended in the order the runner reported them, so a page's
 * links are always recorded before the page; a batch is one checkpoint — a restart fetches again at
 * most what was not yet appended. `record` waits while a full batch is written (back-pressure).
 */
export function createCrawlRecording(deps: CrawlRecordingDeps) {
  const batchEvents = deps.batchEvents ?? 50;
  const batchMs = deps.batchMs ?? 250;
  let buffer: CrawlProgressEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown;
  /** Texts of the pages kept in this run, for scoring without reading them back. */
  const texts = new Map<string, PageText>();

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = buffer;
    buffer = [];
    if (batch.length > 0) {
      writing = writing
        .then(() => deps.append(batch))
        .catch((error: unknown) => {
          failure ??= error;
        });
    }
    return writing.then(() => {
      if (failure) throw failure;
    });
  }

  async function fetchedEvent(page: CrawledPage): Promise<PageFetched> {
    const crawlId = deps.crawlId;
    const put = async (bytes: Uint8Array) => (await deps.blobs.put(bytes, { holder: deps.holder })).sha256;
    let contentSha256: string | null = null;
    let htmlSha256: string | null = null;
    let title: string | null = null;
    let language: PageFetched['language'] = null;
    let characters = 0;
    let sales: { isSalesPage: boolean; salesCategory: PageFetched['salesCategory']; detectionReason: string | null } = {
      isSalesPage: false,
      salesCategory: null,
      detectionReason: null,
    };
    if (page.notModified) {
      contentSha256 = deps.knownContent?.get(page.key) ?? null;
    } else if (page.html) {
      const html = page.html;
      contentSha256 = await put(utf8(html.text));
      htmlSha256 = await put(utf8(html.mainHtml));
      title = html.title;
      language = html.language;
      characters = html.text.length;
      sales = {
        isSalesPage: html.sales.isSalesPage,
        salesCategory: html.sales.category,
        detectionReason: html.sales.reason.slice(0, 500),
      };
      texts.set(page.key, { headings: html.headings, text: html.text });
    } else if (page.body) {
      contentSha256 = await put(page.body);
      title = decodeURIComponent(new URL(page.finalUrl).pathname.split('/').pop() || '') || null;
    }
    return {
      crawlId,
      url: page.url,
      finalUrl: page.finalUrl.slice(0, MAX_URL),
      key: page.key,
      depth: page.depth,
      status: page.status,
      notModified: page.notModified,
      kind: page.kind,
      title: title ? title.slice(0, 500) : null,
      language,
      characters,
      bytes: page.bytes,
      truncated: page.truncated,
      note: page.note,
      contentSha256,
      htmlSha256,
      etag: page.etag ? page.etag.slice(0, 500) : null,
      lastModified: page.lastModified ? page.lastModified.slice(0, 100) : null,
      ...sales,
      links: page.links.filter((link) => link.length <= MAX_URL).slice(0, RECORDED_LINKS_PER_PAGE),
    };
  }

  async function toEvent(event: CrawlEvent): Promise<CrawlProgressEvent | null> {
    const crawlId = deps.crawlId;
    switch (event.type) {
      case 'robots':
        return {
          type: 'CrawlRobotsRead',
          data: {
            crawlId,
            origin: event.origin,
            note: event.note,
            crawlDelaySeconds: event.crawlDelaySeconds,
            sitemaps: event.sitemaps.filter((url) => url.length <= MAX_URL).slice(0, 50),
          },
        };
      case 'discovered':
        return {
          type: 'PagesDiscovered',
          data: {
            crawlId,
            fromUrl: event.from ? event.from.slice(0, MAX_URL) : null,
            pages: [
              {
                url: event.entry.url,
                key: event.entry.key,
                depth: event.entry.depth,
                source: event.entry.source,
                lastmod: event.entry.lastmod?.slice(0, 100) ?? null,
              },
            ],
          },
        };
      case 'skipped':
        return {
          type: 'PageSkipped',
          data: {
            crawlId,
            url: event.url,
            key: event.key,
            depth: event.depth,
            reason: event.reason,
            detail: event.detail,
          },
        };
      case 'failed':
        return {
          type: 'PageFailed',
          data: {
            crawlId,
            url: event.url,
            key: event.key,
            depth: event.depth,
            reason: event.reason,
            message: event.message,
            status: event.status,
          },
        };
      case 'fetched':
        return { type: 'PageFetched', data: await fetchedEvent(event.page) };
      case 'sitemap':
        return null;
    }
  }

  return {
    texts,
    /** The runner's onEvent. */
    async record(event: CrawlEvent): Promise<void> {
      const recorded = await toEvent(event);
      if (!recorded) return;
      // Page URLs longer than an event allows are not pages anyone links to (the trap detector stops them first).
      if ('url' in recorded.data && recorded.data.url.length > MAX_URL) return;
      if (recorded.type === 'PagesDiscovered') {
        const page = recorded.data.pages[0]!;
        if (page.url.length > MAX_URL || page.key.length > MAX_URL) return;
        // The next address from the same page joins the event before it, while that is still the last one.
        const last = buffer.at(-1);
        if (
          last?.type === 'PagesDiscovered' &&
          last.data.fromUrl === recorded.data.fromUrl &&
          last.data.pages.length < PAGES_DISCOVERED_MAX
        ) {
          last.data.pages.push(page);
          return;
        }
      }
      buffer.push(recorded);
      if (buffer.length >= batchEvents) await flush();
      else timer ??= setTimeout(() => void flush().catch(() => {}), batchMs);
    },
    /** Writes what is buffered and waits for every write; throws the first write's failure. */
    flush,
  };
}
