/**
 * robots.txt as RFC 9309 reads it: groups of rules under one or more user-agent lines, the group naming
 * our product token wins (all such groups combined), else the `*` groups; within the chosen rules the
 * longest matching pattern decides and Allow wins a tie; `*` matches any run of characters and a final
 * `$` anchors the end. Crawl-delay (not in the RFC, widely used) and Sitemap lines are read too.
 */
export interface RobotsRule {
  allow: boolean;
  /** The pattern as written, percent-encoding normalised. */
  pattern: string;
  matcher: RegExp;
}

export interface RobotsGroup {
  agents: string[];
  rules: RobotsRule[];
  crawlDelaySeconds: number | null;
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  sitemaps: string[];
}

/** Only the first 500 KiB of a robots.txt count (RFC 9309 §2.5). */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/** Common misspellings that robots.txt authors write and crawlers accept. */
const KEYS: Record<string, 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'sitemap'> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  disalow: 'disallow',
  'crawl-delay': 'crawl-delay',
  crawldelay: 'crawl-delay',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
};

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | null = null;
  let collectingAgents = false;

  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = KEYS[line.slice(0, colon).trim().toLowerCase()];
    const value = line.slice(colon + 1).trim();
    if (!key) continue;
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
    } else if (key === 'user-agent') {
      if (!collectingAgents || !current) {
        current = { agents: [], rules: [], crawlDelaySeconds: null };
        groups.push(current);
        collectingAgents = true;
      }
      if (value) current.agents.push(value.toLowerCase());
    } else {
      collectingAgents = false;
      if (!current) continue; // rules before any user-agent line belong to nobody
      if (key === 'crawl-delay') {
        const seconds = Number(value);
        if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = seconds;
      } else if (value) {
        // An empty Disallow allows everything, which is what having no rule means.
        const pattern = normalizePattern(value);
        current.rules.push({ allow: key === 'allow', pattern, matcher: patternToRegExp(pattern) });
      }
    }
  }
  return { groups, sitemaps };
}

/** Non-ASCII characters as their UTF-8 escapes and escapes in upper case, so Hebrew paths compare with the URL's form. */
function normalizePattern(pattern: string): string {
  return pattern
    .replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character))
    .replace(/%([0-9a-fA-F]{2})/g, (_escape, hex: string) => `%${hex.toUpperCase()}`);
}

function patternToRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** What a crawl obeys for one site: the rules of our group, its delay and the sitemaps. */
export interface RobotsPolicy {
  isAllowed(url: string | URL): boolean;
  crawlDelaySeconds: number | null;
  sitemaps: string[];
  /** True when robots.txt forbids the whole site to us (or could not be read because the server failed). */
  disallowsEverything: boolean;
  /** Why the policy is what it is, for the crawl's log: "robots.txt not found: everything allowed". */
  note: string;
}

/** The product token we look for in User-agent lines. */
export const ROBOTS_PRODUCT_TOKEN = 'KesherBot';

export function robotsPolicyFor(robots: RobotsTxt, productToken = ROBOTS_PRODUCT_TOKEN): RobotsPolicy {
  const token = productToken.toLowerCase();
  const named = robots.groups.filter((group) => group.agents.some((agent) => agent.replace(/\/.*$/, '') === token));
  const chosen = named.length > 0 ? named : robots.groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  const delays = chosen.map((group) => group.crawlDelaySeconds).filter((delay): delay is number => delay !== null);
  const isAllowed = (url: string | URL) => decide(rules, url);
  return {
    isAllowed,
    crawlDelaySeconds: delays.length > 0 ? Math.max(...delays) : null,
    sitemaps: robots.sitemaps,
    // Forbidden at the root with no Allow anywhere: nothing on the site may be fetched.
    disallowsEverything: !isAllowed('http://x/') && !rules.some((rule) => rule.allow),
    note:
      named.length > 0
        ? `robots.txt has rules for ${productToken}`
        : chosen.length > 0
          ? 'robots.txt rules for all crawlers apply'
          : 'robots.txt has no rules for us: everything allowed',
  };
}

function decide(rules: readonly RobotsRule[], input: string | URL): boolean {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : input;
  } catch {
    return false;
  }
  const path = normalizePattern(`${url.pathname}${url.search}`);
  if (url.pathname === '/robots.txt') return true;
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    if (!rule.matcher.test(path)) continue;
    if (
      !best ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
    )
      best = rule;
  }
  return best ? best.allow : true;
}

/**
 * The policy from how the robots.txt fetch went (RFC 9309 §2.3.1): a 2xx is parsed; 4xx means there are
 * no rules; a 5xx or no answer at all means the site may not be crawled for now, and the crawl says so.
 */
export function robotsPolicyFromFetch(
  outcome: { status: number; body: string } | { unreachable: string },
  productToken = ROBOTS_PRODUCT_TOKEN,
): RobotsPolicy {
  if ('unreachable' in outcome)
    return disallowAll(`robots.txt could not be fetched (${outcome.unreachable}): the site is not crawled`);
  if (outcome.status >= 200 && outcome.status < 300)
    return robotsPolicyFor(parseRobotsTxt(outcome.body.slice(0, ROBOTS_MAX_BYTES)), productToken);
  if (outcome.status >= 400 && outcome.status < 500)
    return {
      ...robotsPolicyFor({ groups: [], sitemaps: [] }),
      note: `robots.txt answered ${outcome.status}: everything allowed`,
    };
  return disallowAll(`robots.txt answered ${outcome.status}: the site is not crawled`);
}

function disallowAll(note: string): RobotsPolicy {
  return {
    isAllowed: (url) => String(url).endsWith('/robots.txt'),
    crawlDelaySeconds: null,
    sitemaps: [],
    disallowsEverything: true,
    note,
  };
}
