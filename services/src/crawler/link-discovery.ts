import type { CheerioAPI } from 'cheerio';
import { fetchableUrl, isSameSite, normalizeUrl } from './url-normalizer.js';

export interface DiscoveredLink {
  /** The address to fetch (resolved, fragment dropped). */
  url: string;
  /** The dedup key (see normalizeUrl). */
  key: string;
  /** The link's words (anchor text, else its title or an image's alt): evidence of what the target is about. */
  text: string;
  nofollow: boolean;
}

export interface PageLinks {
  /** Same-site links to pages or documents, each target once, in page order. */
  links: DiscoveredLink[];
  /** How many links pointed elsewhere (off-site, mail, phone, assets): reported, never followed. */
  ignored: number;
  /** The page's <link rel="canonical">, resolved; null when absent or unusable. */
  canonical: string | null;
  /** `<meta name="robots">`: noindex keeps the page out of the results, nofollow stops discovery from it. */
  robots: { noindex: boolean; nofollow: boolean };
}

/** Assets and downloads that are never a page of knowledge. PDF and Word documents are kept: they go to the extractors. */
const SKIPPED_EXTENSIONS =
  /\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|css|js|mjs|map|json|xml|rss|atom|woff2?|ttf|otf|eot|zip|rar|7z|gz|tgz|tar|exe|dmg|apk|msi|iso|mp[34]|m4a|m4v|mov|avi|wmv|webm|ogg|wav|flac|xlsx?|pptx?|csv|ics)$/i;

/**
 * The links a crawl may follow from a page: <a>/<area> hrefs and hreflang alternates, resolved against
 * <base href>, kept only when they stay on the site. Must run before extraction, which removes the
 * navigation these links mostly live in.
 */
export function discoverLinks($: CheerioAPI, pageUrl: string, site: string): PageLinks {
  const baseHref = $('base[href]').first().attr('href');
  const base = (baseHref && fetchableUrl(baseHref, pageUrl)) || pageUrl;
  const robotsMeta = ($('meta[name="robots" i]').attr('content') ?? '').toLowerCase();
  const robots = { noindex: /\b(noindex|none)\b/.test(robotsMeta), nofollow: /\b(nofollow|none)\b/.test(robotsMeta) };
  const canonicalHref = $('link[rel~="canonical" i][href]').first().attr('href');
  const canonical = canonicalHref ? fetchableUrl(canonicalHref, base) : null;

  const links: DiscoveredLink[] = [];
  const seen = new Set<string>();
  let ignored = 0;
  if (!robots.nofollow) {
    $('a[href], area[href], link[rel~="alternate" i][hreflang][href]').each((_index, element) => {
      const $element = $(element);
      const href = $element.attr('href')!.trim();
      const url = href && !/^(mailto|tel|javascript|data|sms|whatsapp):/i.test(href) ? fetchableUrl(href, base) : null;
      const key = url ? normalizeUrl(url) : null;
      if (!url || !key || !isSameSite(url, site) || SKIPPED_EXTENSIONS.test(new URL(url).pathname)) {
        ignored++;
        return;
      }
      if (seen.has(key)) return;
      seen.add(key);
      const text = ($element.text() || $element.attr('title') || $element.find('img[alt]').attr('alt') || '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 200);
      links.push({ url, key, text, nofollow: /\bnofollow\b/i.test($element.attr('rel') ?? '') });
    });
  }
  return { links, ignored, canonical, robots };
}
