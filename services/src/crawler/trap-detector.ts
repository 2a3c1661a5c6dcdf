/**
 * Spider traps: addresses a site can generate without end. A calendar links next month forever, faceted
 * search multiplies query strings, a relative link in a broken template nests paths (/a/b/a/b/…). Each
 * rule here stops one of them before it eats the crawl's page budget; the verdict says which and why.
 */
export type TrapKind = 'calendar' | 'query-explosion' | 'repeated-segments' | 'too-long' | 'too-deep';

export interface TrapVerdict {
  kind: TrapKind;
  reason: string;
}

export interface TrapLimits {
  maxUrlLength: number;
  maxPathSegments: number;
  /** Distinct query strings one path may have before more are refused (faceted search, sort orders, endless ?page=). */
  maxQueryVariantsPerPath: number;
  /** Query parameters one address may carry (filter combinations). */
  maxQueryParameters: number;
  /** Dated pages of one shape (e.g. /calendar/####/##) before more are refused. */
  maxDatedPagesPerShape: number;
  /** A date further ahead than this many years is a calendar running on, not content. */
  maxYearsAhead: number;
  /** The oldest year a page can plausibly be about; earlier is a calendar running backwards. */
  earliestYear: number;
}

export const defaultTrapLimits: TrapLimits = {
  maxUrlLength: 1024,
  maxPathSegments: 12,
  maxQueryVariantsPerPath: 30,
  maxQueryParameters: 6,
  maxDatedPagesPerShape: 36,
  maxYearsAhead: 2,
  earliestYear: 1995,
};

export interface TrapDetector {
  /** Judges an address about to be added to the crawl; it counts it when it passes. */
  check(url: string): TrapVerdict | null;
}

const DATE_IN_PATH =
  /(?:^|[/_-])((?:19|20|21)\d{2})(?:[/_-](0?[1-9]|1[0-2]))?(?:[/_-](0?[1-9]|[12]\d|3[01]))?(?=$|[/_.-])/;
const DATE_PARAMETER =
  /^(?:date|day|month|year|week|ym|yearmonth|cal|calendar|start|end|from|to|d|m|y|tribe-bar-date|eventdate)$/i;
const DATE_VALUE = /^((?:19|20|21)\d{2})(?:[-/.]?(0?[1-9]|1[0-2]))?(?:[-/.]?(0?[1-9]|[12]\d|3[01]))?$/;

export function createTrapDetector(options: { now: Date; limits?: Partial<TrapLimits> }): TrapDetector {
  const limits = { ...defaultTrapLimits, ...options.limits };
  const currentYear = options.now.getUTCFullYear();
  const queriesByPath = new Map<string, Set<string>>();
  const datedByShape = new Map<string, Set<string>>();

  return {
    check(input) {
      let url: URL;
      try {
        url = new URL(input);
      } catch {
        return { kind: 'too-long', reason: 'not a valid address' };
      }
      if (input.length > limits.maxUrlLength)
        return { kind: 'too-long', reason: `address longer than ${limits.maxUrlLength} characters` };
      const segments = url.pathname
        .split('/')
        .filter(Boolean)
        .map((segment) => safeDecode(segment).toLowerCase());
      if (segments.length > limits.maxPathSegments)
        return { kind: 'too-deep', reason: `more than ${limits.maxPathSegments} path segments` };
      const repeated = repeatedSegments(segments);
      if (repeated) return { kind: 'repeated-segments', reason: repeated };

      const year = yearIn(url);
      if (year !== null) {
        if (year > currentYear + limits.maxYearsAhead)
          return { kind: 'calendar', reason: `dated ${year}, more than ${limits.maxYearsAhead} years ahead` };
        if (year < limits.earliestYear)
          return { kind: 'calendar', reason: `dated ${year}, before ${limits.earliestYear}` };
        const shape = `${url.host}${url.pathname.replace(/\d/g, '#')}?${[...url.searchParams.keys()].sort().join('&')}`;
        const seen = datedByShape.get(shape) ?? new Set<string>();
        if (!seen.has(url.href) && seen.size >= limits.maxDatedPagesPerShape) {
          return {
            kind: 'calendar',
            reason: `more than ${limits.maxDatedPagesPerShape} dated pages shaped like ${url.pathname.replace(/\d/g, '#')}`,
          };
        }
        seen.add(url.href);
        datedByShape.set(shape, seen);
      }

      if (url.search) {
        const parameters = [...url.searchParams.keys()];
        if (parameters.length > limits.maxQueryParameters)
          return { kind: 'query-explosion', reason: `${parameters.length} query parameters` };
        const path = `${url.host}${url.pathname}`;
        const variants = queriesByPath.get(path) ?? new Set<string>();
        const query = [...url.searchParams.entries()]
          .map(([name, value]) => `${name}=${value}`)
          .sort()
          .join('&');
        if (!variants.has(query) && variants.size >= limits.maxQueryVariantsPerPath) {
          return {
            kind: 'query-explosion',
            reason: `more than ${limits.maxQueryVariantsPerPath} query-string variants of ${url.pathname}`,
          };
        }
        variants.add(query);
        queriesByPath.set(path, variants);
      }
      return null;
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A word segment three times, or a run of two or more segments repeated back to back (/a/b/a/b). */
function repeatedSegments(segments: string[]): string | null {
  const counts = new Map<string, number>();
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) continue;
    const count = (counts.get(segment) ?? 0) + 1;
    counts.set(segment, count);
    if (count >= 3) return `the segment "${segment}" appears ${count} times`;
  }
  for (let length = 2; length * 2 <= segments.length; length++) {
    for (let start = 0; start + length * 2 <= segments.length; start++) {
      const first = segments.slice(start, start + length).join('/');
      if (first === segments.slice(start + length, start + length * 2).join('/')) return `the path repeats "${first}"`;
    }
  }
  return null;
}

/** The year a calendar-like address is about, from its path or a date-like query parameter. */
function yearIn(url: URL): number | null {
  const inPath = DATE_IN_PATH.exec(url.pathname);
  if (
    inPath &&
    (inPath[2] !== undefined ||
      /(calendar|events?|archive|day|month|week|year|לוח|אירועים)/i.test(safeDecode(url.pathname)))
  )
    return Number(inPath[1]);
  for (const [name, value] of url.searchParams) {
    if (!DATE_PARAMETER.test(name)) continue;
    const match = DATE_VALUE.exec(value.trim());
    if (match) return Number(match[1]);
  }
  return null;
}
