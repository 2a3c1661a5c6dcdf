/**
 * One page, one key. Links to a page come spelled many ways (fragments, default ports, tracking
 * parameters, parameter order, a trailing slash, percent-encoding case); the crawl fetches each page
 * once, so it deduplicates on the normalised form. The normalised form is a key, not the address to
 * fetch: a page is still fetched at the address it was found under, so no server is asked for a
 * spelling it never published.
 */

/** Parameters that only say where a visitor came from; they never change the page. */
const TRACKING_PARAMETERS = new Set([
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'igshid',
  'li_fat_id',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'ref_src',
  'srsltid',
  'spm',
  'phpsessid',
  'jsessionid',
  'sessionid',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'mkt_tok',
]);
const isTrackingParameter = (name: string) => {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || lower.startsWith('pk_') || TRACKING_PARAMETERS.has(lower);
};

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes %XX escapes of unreserved characters and upper-cases the rest (RFC 3986 §6.2.2). */
function normalizePercentEncoding(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/** A well-formed http(s) address without credentials and without its fragment, or null. */
export function parseHttpUrl(input: string, base?: string | URL): URL | null {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  url.hash = '';
  return url;
}

/**
 * The dedup key of an address: lower-case scheme and host without a trailing dot, no default port, no
 * fragment, `;jsessionid=` path parameters and duplicate slashes removed, percent-encoding normalised,
 * no trailing slash except for the root, tracking parameters removed and the rest sorted. Null for
 * anything the crawler never fetches (not http(s), malformed, with credentials).
 */
export function normalizeUrl(input: string, base?: string | URL): string | null {
  const url = parseHttpUrl(input, base);
  if (!url) return null;
  const host = url.hostname.replace(/\.$/, '');
  const port = url.port ? `:${url.port}` : '';
  let path = normalizePercentEncoding(url.pathname)
    .replace(/;jsessionid=[^/]*/gi, '')
    .replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  const parameters = [...url.searchParams.entries()]
    .filter(([name]) => !isTrackingParameter(name))
    .sort(([a, aValue], [b, bValue]) => (a === b ? (aValue < bValue ? -1 : aValue > bValue ? 1 : 0) : a < b ? -1 : 1));
  const query = parameters.length > 0 ? `?${new URLSearchParams(parameters).toString()}` : '';
  return `${url.protocol}//${host}${port}${path}${query}`;
}

/** The address to fetch for a link: resolved against the page, fragment dropped, otherwise as published. */
export function fetchableUrl(input: string, base?: string | URL): string | null {
  return parseHttpUrl(input, base)?.href ?? null;
}

/**
 * The site a crawl stays on: the start address's host without a leading "www.". Without the public
 * suffix list we cannot know that shop.example.co.il and example.co.il share an owner, so the rule is
 * the host itself and its subdomains: starting at example.com takes in www. and shop.example.com;
 * starting at myshop.wixsite.com never wanders to other.wixsite.com.
 */
export function siteOf(url: string | URL): string {
  const host = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase().replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}

export function isSameSite(url: string | URL, site: string): boolean {
  let host: string;
  try {
    host = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return host === site || host.endsWith(`.${site}`);
}

/**
 * The key a page's <link rel="canonical"> points to, when it is a usable address on the same site;
 * otherwise the page's own key. A canonical pointing off-site (syndicated content) is ignored so a
 * crawl never leaves its site by way of it.
 */
export function canonicalKey(pageUrl: string, canonicalHref: string | null | undefined, site: string): string | null {
  const own = normalizeUrl(pageUrl);
  if (!canonicalHref) return own;
  const canonical = normalizeUrl(canonicalHref, pageUrl);
  return canonical && isSameSite(canonical, site) ? canonical : own;
}
