import {
  OutboundError,
  type OutboundErrorReason,
  type OutboundFetch,
  type OutboundResponse,
} from '../outbound/index.js';
import {
  createFrontier,
  defaultFrontierLimits,
  type FrontierEntry,
  type FrontierLimits,
  type FrontierResume,
  type FrontierStats,
  type StopReason,
} from './crawl-frontier.js';
import { analyzeHtmlPage, type HtmlPageAnalysis } from './page-analysis.js';
import { ROBOTS_MAX_BYTES, ROBOTS_PRODUCT_TOKEN, robotsPolicyFromFetch, type RobotsPolicy } from './robots-txt.js';
import { SitemapError, parseSitemap, sitemapText } from './sitemap.js';
import { createTrapDetector } from './trap-detector.js';
import { fetchableUrl, isSameSite, normalizeUrl, siteOf } from './url-normalizer.js';

/**
 * One crawl of one site, driven through the outbound fetch (the only way out, SSRF-guarded) and the
 * frontier (the plan). It reports everything it learns as events, in an order that makes a restart
 * cheap: a page's discovered links are reported before the page itself, so a page recorded as fetched
 * always has its links recorded too, and at most the pages in flight are fetched again.
 */
export interface CrawlRequest {
  startUrl: string;
  maxPages: number;
  maxDepth: number;
  /** Read robots.txt's sitemaps (or /sitemap.xml) for addresses; on by default. */
  useSitemaps?: boolean;
  /** A recrawl: what the last crawl knew of each page (by key), for conditional requests. */
  known?: ReadonlyMap<string, KnownPage>;
  /** A crawl carried on after a restart (see FrontierResume). */
  resume?: FrontierResume;
}

/** What a recrawl needs to know about a page from the last crawl. */
export interface KnownPage {
  etag?: string | null;
  lastModified?: string | null;
  /** Its links last time: a page that answers 304 is not parsed, so discovery goes on from these. */
  links?: readonly string[];
  /** What it counted towards the total last time. */
  bytes?: number;
}

export type PageKind = 'html' | 'pdf' | 'docx' | 'txt';

export interface CrawledPage {
  url: string;
  /** Where the content came from, after redirects. */
  finalUrl: string;
  key: string;
  depth: number;
  status: number;
  /** 304 to a conditional request: the page is as it was; nothing was downloaded or parsed. */
  notModified: boolean;
  kind: PageKind;
  contentType: string | null;
  /** Bigger than the per-page cap: only the first bytes were read (see `note`). */
  truncated: boolean;
  note: string | null;
  etag: string | null;
  lastModified: string | null;
  /** What the page counts towards the crawl's total (extracted text for HTML, the file for documents). */
  bytes: number;
  /** HTML pages: title, text, clean HTML, links, sales verdict, content hash. */
  html: HtmlPageAnalysis | null;
  /** PDF, Word and text files: the bytes, for the knowledge extractors. */
  body: Uint8Array | null;
  /** Same-site addresses it links to. */
  links: string[];
}

export type SkipReason =
  'robots' | 'trap' | 'noindex' | 'duplicate' | 'off-site-redirect' | 'unsupported-type' | 'empty' | 'size-limit';
export type PageFailureReason = OutboundErrorReason | 'not-found' | 'http-error';

export type CrawlEvent =
  | { type: 'robots'; origin: string; note: string; crawlDelaySeconds: number | null; sitemaps: string[] }
  | { type: 'sitemap'; url: string; entries: number; problem: string | null }
  | { type: 'discovered'; entry: FrontierEntry; from: string | null }
  | { type: 'skipped'; url: string; key: string; depth: number; reason: SkipReason; detail: string }
  | { type: 'fetched'; page: CrawledPage }
  | {
      type: 'failed';
      url: string;
      key: string;
      depth: number;
      reason: PageFailureReason;
      message: string;
      status: number | null;
    };

export type CrawlFailureReason = 'invalid-url' | 'robots' | 'no-pages' | OutboundErrorReason;

export interface CrawlOutcome {
  /** completed: the site (or the page budget) was covered; stopped: a limit or a cancel cut it short; failed: nothing usable. */
  status: 'completed' | 'stopped' | 'failed';
  reason: StopReason | 'link-limit' | CrawlFailureReason;
  /** A sentence for the owner. */
  message: string;
  stats: FrontierStats & { skipped: number };
  /** Key → how many crawled pages link to it: the relevance score's inbound-link feature. */
  inboundLinks: Record<string, number>;
  durationMs: number;
}

export interface CrawlLimits extends FrontierLimits {
  /**
   * Links followed from one page. A page may hold any number of links; past this many the shallowest
   * addresses (fewest path segments: a site's sections before its leaves) are followed, in page order.
   */
  maxLinksPerPage: number;
  /**
   * Addresses one crawl records (queued, or refused by robots.txt or the trap detector when offered);
   * undefined: `addressBudget(maxPages)`. What a crawl stores stays in proportion to its page budget,
   * whatever its pages link to; addresses found past it are left (the crawl says `link-limit`).
   */
  maxAddresses?: number;
  /** Per page: spec §9 "300 KB per file". */
  pageMaxBytes: number;
  pageTimeoutMs: number;
  /** robots.txt may ask for a Crawl-delay; more than this is not honoured (the crawl would take days). */
  maxCrawlDelayMs: number;
  maxSitemaps: number;
  sitemapMaxBytes: number;
}

/** A crawl of `maxPages` pages records at most this many addresses: room for the pages, their failures and skips, and the sitemap's list. */
export const addressBudget = (maxPages: number) => maxPages * 4 + 100;

export const defaultCrawlLimits: CrawlLimits = {
  ...defaultFrontierLimits,
  maxLinksPerPage: 500,
  pageMaxBytes: 300 * 1024,
  pageTimeoutMs: 20_000,
  maxCrawlDelayMs: 10_000,
  maxSitemaps: 10,
  sitemapMaxBytes: 10 * 1024 * 1024,
};

export interface CrawlDeps {
  fetch: OutboundFetch;
  onEvent: (event: CrawlEvent) => void | Promise<void>;
  limits?: Partial<CrawlLimits>;
  signal?: AbortSignal;
  now?: () => number;
  /** Today, for telling a calendar trap from an archive. */
  today?: Date;
  productToken?: string;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const DOCUMENT_TYPES: Record<string, PageKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'txt',
};

export async function runCrawl(deps: CrawlDeps, request: CrawlRequest): Promise<CrawlOutcome> {
  const now = deps.now ?? Date.now;
  const started = now();
  const limits: CrawlLimits = {
    ...defaultCrawlLimits,
    ...deps.limits,
    maxPages: request.maxPages,
    maxDepth: request.maxDepth,
  };
  const frontier = createFrontier({ limits, ...(request.resume ? { resume: request.resume } : {}) });
  const maxAddresses = limits.maxAddresses ?? addressBudget(request.maxPages);
  /** Addresses recorded so far (those recorded before a restart included), and those left for the budget. */
  let addresses = request.resume
    ? request.resume.kept.length + request.resume.settled.length + request.resume.pending.length
    : 0;
  let addressesLeft = 0;
  const traps = createTrapDetector({ now: deps.today ?? new Date(now()) });
  const inbound = new Map<string, Set<string>>();
  const robotsByOrigin = new Map<string, Promise<RobotsPolicy>>();
  let skipped = 0;
  /** How the start page failed, when it did: the crawl's message if nothing else was found. */
  const startFailure: { value: { reason: CrawlFailureReason; message: string } | null } = { value: null };

  const finish = (status: CrawlOutcome['status'], reason: CrawlOutcome['reason'], message: string): CrawlOutcome => ({
    status,
    reason,
    message,
    stats: { ...frontier.stats(), skipped },
    inboundLinks: Object.fromEntries([...inbound].map(([key, from]) => [key, from.size])),
    durationMs: now() - started,
  });

  const startUrl = fetchableUrl(request.startUrl);
  const startKey = startUrl ? normalizeUrl(startUrl) : null;
  if (!startUrl || !startKey)
    return finish('failed', 'invalid-url', 'Please enter a valid URL (including http:// or https://)');
  const site = siteOf(startUrl);
  const startOrigin = new URL(startUrl).origin;

  // robots.txt of the start origin decides whether there is a crawl at all.
  let startRobots: RobotsPolicy;
  try {
    startRobots = await robotsFor(startOrigin);
  } catch (error) {
    const outbound = error as OutboundError;
    return finish('failed', outbound.reason, outbound.message);
  }
  if (startRobots.disallowsEverything) {
    return finish(
      'failed',
      'robots',
      /answered|could not be fetched/.test(startRobots.note)
        ? `The site's robots.txt could not be read, so the site was not crawled (${startRobots.note}).`
        : "The site's robots.txt does not allow crawling it.",
    );
  }

  if (!frontier.hasSeen(startKey)) await offer({ url: startUrl, key: startKey, depth: 0, source: 'start' }, null);
  if (request.useSitemaps !== false) await readSitemaps(startRobots);

  // The loop: start what the frontier allows, wait for politeness or for a fetch to finish.
  const active = new Set<Promise<void>>();
  const cancelled = deps.signal ? aborted(deps.signal) : null;
  for (;;) {
    if (deps.signal?.aborted) frontier.stop('cancelled');
    const decision = frontier.next(now());
    if (decision.kind === 'fetch') {
      const task = crawlPage(decision.entry).catch(() => frontier.settle(decision.entry, 'failed'));
      const tracked: Promise<void> = task.finally(() => active.delete(tracked));
      active.add(tracked);
      continue;
    }
    if (decision.kind === 'done' && active.size === 0) break;
    const waits: Array<Promise<unknown>> = [...active];
    if (decision.kind === 'wait') waits.push(delay(decision.untilMs - now(), deps.signal));
    if (cancelled && !deps.signal?.aborted) waits.push(cancelled);
    if (waits.length === 0) break;
    await Promise.race(waits);
  }

  const stats = frontier.stats();
  const stopped = frontier.stopReason() ?? 'exhausted';
  // Everything queued was crawled, but not everything found was queued: the site was not covered.
  const reason = stopped === 'exhausted' && addressesLeft > 0 ? 'link-limit' : stopped;
  if (stats.kept === 0 && reason !== 'cancelled') {
    return startFailure.value
      ? finish('failed', startFailure.value.reason, startFailure.value.message)
      : finish('failed', 'no-pages', 'No pages found to crawl. Please check the URL and try again.');
  }
  switch (reason) {
    case 'exhausted':
      return finish('completed', reason, `The crawl found ${stats.kept} page${stats.kept === 1 ? '' : 's'}.`);
    case 'page-limit':
      return finish('completed', reason, `The crawl stopped at its limit of ${limits.maxPages} pages.`);
    case 'link-limit':
      return finish(
        'completed',
        reason,
        `The crawl followed its limit of ${maxAddresses} addresses and found ${stats.kept} page${stats.kept === 1 ? '' : 's'}.`,
      );
    case 'size-limit':
      return finish(
        'stopped',
        reason,
        `The crawl stopped at the ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB limit for all pages; ${stats.kept} pages were kept.`,
      );
    case 'failure-limit':
      return finish('stopped', reason, `The crawl gave up after ${stats.failed} pages failed.`);
    default:
      return finish('stopped', reason, 'The crawl was cancelled.');
  }

  async function emit(event: CrawlEvent) {
    await deps.onEvent(event);
  }

  function robotsFor(origin: string): Promise<RobotsPolicy> {
    let policy = robotsByOrigin.get(origin);
    if (!policy) {
      policy = (async () => {
        let result: RobotsPolicy;
        try {
          const response = await deps.fetch({
            url: `${origin}/robots.txt`,
            maxBytes: ROBOTS_MAX_BYTES,
            timeoutMs: limits.pageTimeoutMs,
            ...(deps.signal ? { signal: deps.signal } : {}),
          });
          result = robotsPolicyFromFetch(
            { status: response.status, body: Buffer.from(response.body).toString('utf8') },
            deps.productToken ?? ROBOTS_PRODUCT_TOKEN,
          );
        } catch (error) {
          if (!(error instanceof OutboundError)) throw error;
          // The site itself is refused, missing or down: for the start origin that is the crawl's answer,
          // not robots.txt's; elsewhere (a subdomain) its pages are simply not crawled.
          if (
            origin === startOrigin ||
            ['blocked-address', 'unresolvable', 'invalid-url', 'unsupported-scheme', 'credentials-in-url'].includes(
              error.reason,
            )
          )
            throw error;
          result = robotsPolicyFromFetch({ unreachable: error.message }, deps.productToken ?? ROBOTS_PRODUCT_TOKEN);
        }
        const host = new URL(origin).host;
        if (result.crawlDelaySeconds)
          frontier.setHostDelay(host, Math.min(result.crawlDelaySeconds * 1000, limits.maxCrawlDelayMs));
        await emit({
          type: 'robots',
          origin,
          note: result.note,
          crawlDelaySeconds: result.crawlDelaySeconds,
          sitemaps: result.sitemaps,
        });
        return result;
      })();
      robotsByOrigin.set(origin, policy);
    }
    return policy;
  }

  /** Adds an address to the plan after the robots (known origins) and trap checks; reports it when it is new. */
  async function offer(entry: FrontierEntry, from: string | null): Promise<boolean> {
    if (frontier.hasSeen(entry.key) || entry.depth > limits.maxDepth || frontier.stopReason()) return false;
    if (entry.source !== 'start' && addresses >= maxAddresses) {
      addressesLeft++;
      return false;
    }
    const origin = new URL(entry.url).origin;
    const known = robotsByOrigin.has(origin) ? await robotsFor(origin).catch(() => null) : null;
    if (known && !known.isAllowed(entry.url)) {
      frontier.markSeen(entry.key);
      addresses++;
      skipped++;
      await emit({
        type: 'skipped',
        url: entry.url,
        key: entry.key,
        depth: entry.depth,
        reason: 'robots',
        detail: 'robots.txt does not allow it',
      });
      return false;
    }
    const trap = entry.source === 'start' ? null : traps.check(entry.url);
    if (trap) {
      frontier.markSeen(entry.key);
      addresses++;
      skipped++;
      await emit({
        type: 'skipped',
        url: entry.url,
        key: entry.key,
        depth: entry.depth,
        reason: 'trap',
        detail: `${trap.kind}: ${trap.reason}`,
      });
      return false;
    }
    if (frontier.offer(entry) !== 'queued') return false;
    addresses++;
    await emit({ type: 'discovered', entry, from });
    return true;
  }

  async function readSitemaps(robots: RobotsPolicy) {
    const queue = (robots.sitemaps.length > 0 ? robots.sitemaps : [`${startOrigin}/sitemap.xml`]).filter((url) =>
      isSameSite(url, site),
    );
    const read = new Set<string>();
    let offered = 0;
    while (queue.length > 0 && read.size < limits.maxSitemaps && offered < limits.maxPages * 3) {
      const url = queue.shift()!;
      if (read.has(url)) continue;
      read.add(url);
      let problem: string | null = null;
      let entries = 0;
      try {
        const response = await deps.fetch({
          url,
          maxBytes: limits.sitemapMaxBytes,
          timeoutMs: limits.pageTimeoutMs,
          ...(deps.signal ? { signal: deps.signal } : {}),
        });
        if (response.status >= 400) problem = `the sitemap answered ${response.status}`;
        else {
          const parsed = parseSitemap(sitemapText(response.body), { maxEntries: limits.maxPages * 3 });
          entries = parsed.entries.length;
          if (parsed.kind === 'index') {
            for (const entry of parsed.entries) if (isSameSite(entry.url, site)) queue.push(entry.url);
          } else if (parsed.kind === 'unknown') problem = 'not a sitemap';
          else {
            for (const entry of parsed.entries) {
              const pageUrl = fetchableUrl(entry.url);
              const key = pageUrl ? normalizeUrl(pageUrl) : null;
              if (!pageUrl || !key || !isSameSite(pageUrl, site)) continue;
              if (await offer({ url: pageUrl, key, depth: 1, source: 'sitemap', lastmod: entry.lastmod }, url))
                offered++;
              if (offered >= limits.maxPages * 3) break;
            }
          }
        }
      } catch (error) {
        if (!(error instanceof OutboundError) && !(error instanceof SitemapError)) throw error;
        problem = error.message;
      }
      await emit({ type: 'sitemap', url, entries, problem });
    }
  }

  async function crawlPage(entry: FrontierEntry): Promise<void> {
    const origin = new URL(entry.url).origin;
    const skip = async (reason: SkipReason, detail: string) => {
      frontier.settle(entry, 'skipped');
      skipped++;
      await emit({ type: 'skipped', url: entry.url, key: entry.key, depth: entry.depth, reason, detail });
    };
    const fail = async (reason: PageFailureReason, message: string, status: number | null) => {
      // Cut off by a cancel: not a failure of the page. Left unreported, it stays pending for a resume.
      if (reason === 'aborted') return frontier.settle(entry, 'skipped');
      frontier.settle(entry, 'failed');
      if (entry.source === 'start')
        startFailure.value = {
          reason: reason === 'not-found' || reason === 'http-error' ? 'no-pages' : reason,
          message,
        };
      await emit({ type: 'failed', url: entry.url, key: entry.key, depth: entry.depth, reason, message, status });
    };

    let robots: RobotsPolicy;
    try {
      robots = await robotsFor(origin);
    } catch (error) {
      return fail((error as OutboundError).reason ?? 'unreachable', (error as Error).message, null);
    }
    if (!robots.isAllowed(entry.url)) return skip('robots', 'robots.txt does not allow it');

    const known = request.known?.get(entry.key);
    const headers: Record<string, string> = {};
    if (known?.etag) headers['if-none-match'] = known.etag;
    if (known?.lastModified) headers['if-modified-since'] = known.lastModified;

    let response: OutboundResponse;
    try {
      response = await deps.fetch({
        url: entry.url,
        headers,
        maxBytes: limits.pageMaxBytes,
        timeoutMs: limits.pageTimeoutMs,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return fail(error.reason, error.message, null);
    }

    if (response.status === 304 && known) {
      const links = await offerLinks(
        entry,
        (known.links ?? []).map((url) => ({ url })),
      );
      if (!frontier.keep(entry, known.bytes ?? 0)) return skip('size-limit', 'the crawl reached its total size limit');
      return emit({
        type: 'fetched',
        page: {
          url: entry.url,
          finalUrl: response.url,
          key: entry.key,
          depth: entry.depth,
          status: 304,
          notModified: true,
          kind: 'html',
          contentType: null,
          truncated: false,
          note: null,
          etag: response.headers.etag ?? known.etag ?? null,
          lastModified: response.headers['last-modified'] ?? known.lastModified ?? null,
          bytes: known.bytes ?? 0,
          html: null,
          body: null,
          links,
        },
      });
    }
    if (response.status === 404 || response.status === 410)
      return fail('not-found', `The page was not found (${response.status}).`, response.status);
    if (response.status < 200 || response.status >= 300)
      return fail('http-error', `The page answered ${response.status}.`, response.status);

    const finalKey = normalizeUrl(response.url) ?? entry.key;
    if (finalKey !== entry.key) {
      if (!isSameSite(response.url, site))
        return skip('off-site-redirect', `redirected off the site, to ${response.url}`);
      if (!robots.isAllowed(response.url) || !(await robotsFor(new URL(response.url).origin)).isAllowed(response.url))
        return skip('robots', 'redirected to an address robots.txt does not allow');
      if (!frontier.markSeen(finalKey)) return skip('duplicate', `redirects to ${response.url}, crawled on its own`);
    }

    const kind = pageKind(response);
    if (!kind)
      return skip(
        'unsupported-type',
        `${response.contentType ?? 'unknown content type'} is not a page Kesher can read`,
      );
    const note = response.truncated
      ? `The page is larger than ${Math.round(limits.pageMaxBytes / 1024)} KB; only its first ${Math.round(limits.pageMaxBytes / 1024)} KB were read.`
      : null;
    const base = {
      url: entry.url,
      finalUrl: response.url,
      key: entry.key,
      depth: entry.depth,
      status: response.status,
      notModified: false,
      kind,
      contentType: response.contentType,
      truncated: response.truncated,
      note,
      etag: response.headers.etag ?? null,
      lastModified: response.headers['last-modified'] ?? null,
    };

    if (kind !== 'html') {
      if (!frontier.keep(entry, response.body.byteLength))
        return skip('size-limit', 'the crawl reached its total size limit');
      return emit({
        type: 'fetched',
        page: { ...base, bytes: response.body.byteLength, html: null, body: response.body, links: [] },
      });
    }

    const html = analyzeHtmlPage({
      url: response.url,
      body: response.body,
      contentTypeHeader: response.headers['content-type'] ?? null,
      site,
    });
    const pageKey = finalKey;
    if (
      html.canonicalKey &&
      html.canonicalKey !== pageKey &&
      html.canonicalKey !== entry.key &&
      !frontier.markSeen(html.canonicalKey)
    ) {
      return skip('duplicate', `the same page as ${html.canonicalKey} (its canonical address)`);
    }
    const links = await offerLinks(
      entry,
      html.links.links.filter((link) => !link.nofollow),
    );
    if (html.links.robots.noindex) return skip('noindex', 'the page asks not to be indexed');
    if (html.text.length === 0) return skip('empty', 'the page has no text');
    if (!frontier.keep(entry, html.textBytes)) return skip('size-limit', 'the crawl reached its total size limit');
    return emit({ type: 'fetched', page: { ...base, bytes: html.textBytes, html, body: null, links } });
  }

  /**
   * Offers a page's same-site links (at most maxLinksPerPage, the shallowest) and answers the addresses
   * among them that the crawl knows (queued, crawled or settled): the page's part of the link graph. A
   * link the crawl left (past its address budget) can never be one of its pages, so it is not kept.
   */
  async function offerLinks(
    from: FrontierEntry,
    found: ReadonlyArray<{ url: string; key?: string }>,
  ): Promise<string[]> {
    const sameSite: Array<{ url: string; key: string }> = [];
    const keys = new Set<string>();
    for (const link of found) {
      const key = link.key ?? normalizeUrl(link.url);
      if (!key || keys.has(key) || !isSameSite(link.url, site)) continue;
      keys.add(key);
      sameSite.push({ url: link.url, key });
    }
    const followed: string[] = [];
    for (const link of shallowestFirst(sameSite, limits.maxLinksPerPage)) {
      if (link.key !== from.key) {
        const sources = inbound.get(link.key) ?? new Set<string>();
        sources.add(from.key);
        inbound.set(link.key, sources);
      }
      await offer({ url: link.url, key: link.key, depth: from.depth + 1, source: 'link' }, from.url);
      if (frontier.hasSeen(link.key)) followed.push(link.url);
    }
    return followed;
  }
}

/** At most `max` links, the shallowest addresses first (ties: page order), handed back in page order. */
export function shallowestFirst<T extends { url: string }>(links: readonly T[], max: number): T[] {
  if (links.length <= max) return [...links];
  const segments = (url: string) => new URL(url).pathname.split('/').filter(Boolean).length;
  return links
    .map((link, index) => ({ link, index, segments: segments(link.url) }))
    .sort((a, b) => a.segments - b.segments || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((ranked) => ranked.link);
}

function pageKind(response: OutboundResponse): PageKind | null {
  const type = response.contentType;
  if (type && HTML_TYPES.has(type)) return 'html';
  if (type && DOCUMENT_TYPES[type]) return DOCUMENT_TYPES[type]!;
  if (!type || type === 'application/octet-stream') {
    const path = new URL(response.url).pathname.toLowerCase();
    if (path.endsWith('.pdf')) return 'pdf';
    if (path.endsWith('.docx')) return 'docx';
    const head = Buffer.from(response.body.subarray(0, 256)).toString('latin1').trimStart().toLowerCase();
    if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'html';
  }
  return null;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
