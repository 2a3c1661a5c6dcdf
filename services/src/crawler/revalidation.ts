import { OutboundError, type OutboundFetch } from '../outbound/index.js';
import { defaultCrawlLimits } from './crawl-runner.js';
import { ROBOTS_MAX_BYTES, robotsPolicyFromFetch } from './robots-txt.js';
import { parseSitemap, SitemapError, sitemapText } from './sitemap.js';
import { fetchableUrl, isSameSite, normalizeUrl, siteOf } from './url-normalizer.js';

/**
 * What a scheduled recrawl asks for. Every page the assistant holds is revalidated (a conditional request:
 * 304 when unchanged) — except a page whose sitemap still gives the lastmod it had when it was last
 * fetched, if that was within a week: the site says it has not changed, and asking would cost a request
 * per page for nothing (on a 2,000-page site, most of a recrawl). A page the sitemap drops, or lists with
 * another date, or that has no lastmod, is asked for; and every page is asked for at least weekly, so a
 * site whose lastmod lies is still refreshed.
 */
export const REVALIDATE_AT_LEAST_EVERY_MS = 7 * 24 * 3600_000;

export interface HeldPage {
  key: string;
  url: string;
  /** The sitemap's lastmod when the page was last fetched (null: none was given). */
  sitemapLastmod: string | null;
  /** When the page was last fetched or revalidated (ISO), null if unknown. */
  lastCrawledAt: string | null;
}

export interface RevalidationPlan {
  /** Pages to ask for, with their lastmod now (recorded, so the next recrawl can compare). */
  fetch: Array<{ key: string; url: string; lastmod: string | null }>;
  /** Pages left alone: their sitemap lastmod is unchanged. */
  unchanged: Array<{ key: string; url: string; lastmod: string }>;
}

export function planRevalidation(input: {
  pages: readonly HeldPage[];
  lastmods: ReadonlyMap<string, string>;
  now: Date;
}): RevalidationPlan {
  const plan: RevalidationPlan = { fetch: [], unchanged: [] };
  for (const page of input.pages) {
    const lastmod = input.lastmods.get(page.key) ?? null;
    const recent =
      page.lastCrawledAt !== null &&
      input.now.getTime() - Date.parse(page.lastCrawledAt) < REVALIDATE_AT_LEAST_EVERY_MS;
    if (lastmod !== null && page.sitemapLastmod === lastmod && recent)
      plan.unchanged.push({ key: page.key, url: page.url, lastmod });
    else plan.fetch.push({ key: page.key, url: page.url, lastmod });
  }
  return plan;
}

/**
 * The lastmod of every page the site's sitemaps list with one (robots.txt's sitemaps, else /sitemap.xml;
 * indexes followed; same site only), by page key. Problems (no sitemap, a broken one, a refused address)
 * only mean fewer dates, so more pages are revalidated; nothing throws but a cancel.
 */
export async function readSitemapLastmods(
  deps: { fetch: OutboundFetch; signal?: AbortSignal },
  startUrl: string,
): Promise<Map<string, string>> {
  const lastmods = new Map<string, string>();
  const start = fetchableUrl(startUrl);
  if (!start) return lastmods;
  const origin = new URL(start).origin;
  const site = siteOf(start);
  const limits = defaultCrawlLimits;
  const signal = deps.signal ? { signal: deps.signal } : {};
  let queue: string[] = [`${origin}/sitemap.xml`];
  try {
    const robots = await deps.fetch({
      url: `${origin}/robots.txt`,
      maxBytes: ROBOTS_MAX_BYTES,
      timeoutMs: limits.pageTimeoutMs,
      ...signal,
    });
    const policy = robotsPolicyFromFetch({ status: robots.status, body: Buffer.from(robots.body).toString('utf8') });
    if (policy.sitemaps.length > 0) queue = [...policy.sitemaps];
  } catch (error) {
    if (!(error instanceof OutboundError) || error.reason === 'aborted') throw error;
  }
  const read = new Set<string>();
  while (queue.length > 0 && read.size < limits.maxSitemaps) {
    const url = queue.shift()!;
    if (read.has(url) || !isSameSite(url, site)) continue;
    read.add(url);
    try {
      const response = await deps.fetch({
        url,
        maxBytes: limits.sitemapMaxBytes,
        timeoutMs: limits.pageTimeoutMs,
        ...signal,
      });
      if (response.status >= 400) continue;
      const parsed = parseSitemap(sitemapText(response.body));
      if (parsed.kind === 'index') queue.push(...parsed.entries.map((entry) => entry.url));
      else {
        for (const entry of parsed.entries) {
          const page = entry.lastmod ? fetchableUrl(entry.url) : null;
          const key = page ? normalizeUrl(page) : null;
          if (key && entry.lastmod && isSameSite(page!, site)) lastmods.set(key, entry.lastmod.trim().slice(0, 100));
        }
      }
    } catch (error) {
      if (error instanceof OutboundError && error.reason === 'aborted') throw error;
      if (!(error instanceof OutboundError) && !(error instanceof SitemapError)) throw error;
    }
  }
  return lastmods;
}
