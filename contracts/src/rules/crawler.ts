import type { CrawlInterval } from '../events/crawler-site.events.js';

/** The Smart Web Crawler's constants (spec §9), shared by the routes, the worker and the client. */
export const crawlerLimits = {
  /** Spec §9 create-flow defaults. */
  create: { maxPages: 2000, maxDepth: 10, deleteOrphanedPages: false, crawlInterval: '24h' as CrawlInterval },
  /** Spec §9 edit-form defaults. */
  edit: { maxPages: 50, maxDepth: 5, crawlInterval: '24h' as CrawlInterval },
  /** Spec §7/§9 smart preview: depth 2. Its page budget is the edit form's (and never above the plan's). */
  preview: { maxDepth: 2, maxPages: 50 },
  /** Spec §9: 300 KB per file, 10 MB in all. */
  pageMaxBytes: 300 * 1024,
  totalMaxBytes: 10 * 1024 * 1024,
  /** Crawler Settings: page size 20, URLs truncated at 50 characters; the preview list shows 20 then "Show more". */
  settingsPageSize: 20,
  urlDisplayChars: 50,
  previewListPage: 20,
  /** Spec §9: smart-crawl preview / commit timeouts (the client waits this long). */
  previewTimeoutMs: 600_000,
  commitTimeoutMs: 300_000,
  /** What a preview file carries of the page's text: `preview` (a teaser) and `content` (the text view). */
  previewChars: 300,
  contentChars: 20_000,
} as const;

/** Each interval in milliseconds; `none` is manual only (no schedule). */
export const crawlIntervalMs: Readonly<Record<CrawlInterval, number | null>> = {
  none: null,
  '4h': 4 * 3600_000,
  '8h': 8 * 3600_000,
  '24h': 24 * 3600_000,
  '3d': 3 * 24 * 3600_000,
  '1w': 7 * 24 * 3600_000,
};

/** The crawler's texts: the spec's (§5, §8) where it has one, else written in its voice. */
export const crawlerMessages = {
  websiteRequired: 'Please enter a website URL',
  invalidUrl: 'Please enter a valid URL (including http:// or https://)',
  urlRequired: 'Please enter a URL',
  noPages: 'No pages found to crawl. Please check the URL and try again.',
  selectPages: 'Please select at least one file to upload',
  configureFailed: 'Failed to configure crawler',
  configNotFound: 'Crawler configuration not found.',
  crawlNotFound: 'Crawl not found.',
  previewNotFound: 'This preview is no longer available. Please scan the website again.',
  previewNotReady: 'The website scan is still running. Please wait for it to finish.',
  urlNotFound: 'URL not found.',
  noContent: 'The content of this page is not available.',
  crawlStarted: 'Crawl started',
  /** fetch-single-url with no scan of that site to add the page to. */
  scanFirst: 'Scan the website first, then add a missing page to its results.',
  pageAdded: 'Page added.',
  /** Add Missing Page with an address the site's robots.txt refuses (the crawl refuses it too). */
  robotsRefused: "The site's robots.txt does not allow crawling this page.",
  /** The waiting preview call ran out of time (the preview job carries on). */
  previewTimedOut: 'The website scan is taking longer than expected. Please try again later.',
  /** A scheduled recrawl came due after the owner's plan stopped including it (spec part 2 §6: auto-sync needs a paid tier). */
  schedulePaused:
    'Paused: your plan no longer includes scheduled recrawl, so the site is not crawled again on schedule. Upgrade on the pricing page, then save the crawl interval again to resume.',
  /** The owner switched the assistant's crawler off on its Edit page: no scheduled recrawl until it is on again. */
  scheduleSwitchedOff:
    "Paused: the crawler is turned off on the assistant's Edit page, so the site is not crawled again on schedule. Turn it on there to resume.",
  deleted: (count: number) => `Deleted ${count} URL(s).`,
  committed: (count: number) => `${count} page${count === 1 ? '' : 's'} added to the assistant's knowledge.`,
} as const;

/** 32-bit FNV-1a, as 8 hex digits: a short, stable tag for names (not for security). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

const EXTENSIONS = { html: 'html', pdf: 'pdf', docx: 'docx', txt: 'txt' } as const;

/**
 * The file name a crawled page gets (preview files, the knowledge file, commits by name): its host and
 * path made readable, and a tag of its full address so that two addresses never share a name
 * (`/a-b` and `/a/b`, or a query string). Stable: the same page always has the same name.
 */
export function crawledPageFileName(key: string, kind: keyof typeof EXTENSIONS): string {
  let readable = key;
  try {
    const url = new URL(key);
    let path = url.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // A path that is not valid percent-encoding stays as it is.
    }
    readable = `${url.hostname}${path === '/' ? '' : path}`;
  } catch {
    // Not an address: name it by its text.
  }
  const extension = EXTENSIONS[kind];
  const slug = readable
    .replace(new RegExp(`\\.${extension}$`, 'i'), '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 180);
  return `${slug || 'page'}-${fnv1a(key)}.${extension}`;
}

/** A URL shown in a narrow column (Crawler Settings): at most `max` characters, with an ellipsis. */
export const truncateUrl = (url: string, max: number = crawlerLimits.urlDisplayChars) =>
  url.length > max ? `${url.slice(0, max)}...` : url;
