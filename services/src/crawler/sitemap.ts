import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

export interface SitemapEntry {
  url: string;
  lastmod: string | null;
}

export interface ParsedSitemap {
  /** A list of pages, an index of further sitemaps, a plain-text list of addresses, or none of these. */
  kind: 'urlset' | 'index' | 'text' | 'unknown';
  entries: SitemapEntry[];
  /** True when there were more entries than `maxEntries` and the rest were ignored. */
  truncated: boolean;
}

/** The sitemaps protocol's own limits: 50,000 addresses and 50 MB unpacked per file. */
export const sitemapLimits = { maxEntries: 50_000, maxInflatedBytes: 50 * 1024 * 1024 };

export class SitemapError extends Error {
  readonly name = 'SitemapError';
}

/**
 * The text of a fetched sitemap. `.xml.gz` files usually arrive as raw gzip (no Content-Encoding), so the
 * magic bytes decide, not the name; inflation stops at `maxInflatedBytes` so a small file that unpacks to
 * gigabytes (a bomb) costs nothing but a refusal.
 */
export function sitemapText(bytes: Uint8Array, maxInflatedBytes = sitemapLimits.maxInflatedBytes): string {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes, { maxOutputLength: maxInflatedBytes }).toString('utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new SitemapError(
          `The sitemap unpacks to more than ${Math.round(maxInflatedBytes / 1024 / 1024)} MB and was not read.`,
        );
      }
      // A truncated download still yields its complete entries: inflate what arrived.
      try {
        return gunzipSync(bytes, { maxOutputLength: maxInflatedBytes, finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString(
          'utf8',
        );
      } catch {
        throw new SitemapError('The sitemap is not valid gzip and was not read.');
      }
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Reads <urlset> and <sitemapindex> documents (namespace prefixes ignored) and plain-text lists. */
export function parseSitemap(text: string, options: { maxEntries?: number } = {}): ParsedSitemap {
  const maxEntries = options.maxEntries ?? sitemapLimits.maxEntries;
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) return parseTextSitemap(trimmed, maxEntries);

  let kind: ParsedSitemap['kind'] = 'unknown';
  const entries: SitemapEntry[] = [];
  let truncated = false;
  let inEntry = false;
  let depth = 0;
  let entryDepth = 0;
  let field: 'loc' | 'lastmod' | null = null;
  let loc = '';
  let lastmod = '';
  const local = (name: string) => name.toLowerCase().replace(/^.*:/, '');

  const parser = new Parser(
    {
      onopentag(name) {
        depth++;
        const tag = local(name);
        if (kind === 'unknown' && tag === 'urlset') kind = 'urlset';
        else if (kind === 'unknown' && tag === 'sitemapindex') kind = 'index';
        else if ((tag === 'url' && kind === 'urlset') || (tag === 'sitemap' && kind === 'index')) {
          inEntry = true;
          entryDepth = depth;
          loc = '';
          lastmod = '';
        } else if (inEntry && depth === entryDepth + 1 && (tag === 'loc' || tag === 'lastmod')) field = tag;
        // <image:loc> and the like sit deeper and are not the page's address.
      },
      ontext(data) {
        if (field === 'loc') loc += data;
        else if (field === 'lastmod') lastmod += data;
      },
      onclosetag(name) {
        depth--;
        const tag = local(name);
        if (tag === 'loc' || tag === 'lastmod') field = null;
        else if (inEntry && (tag === 'url' || tag === 'sitemap')) {
          inEntry = false;
          const url = loc.trim();
          if (!url) return;
          if (entries.length >= maxEntries) {
            truncated = true;
            parser.pause();
            return;
          }
          entries.push({ url, lastmod: lastmod.trim() || null });
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return { kind, entries, truncated };
}

function parseTextSitemap(text: string, maxEntries: number): ParsedSitemap {
  const urls = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\/\S+$/i.test(line));
  if (urls.length === 0) return { kind: 'unknown', entries: [], truncated: false };
  return {
    kind: 'text',
    entries: urls.slice(0, maxEntries).map((url) => ({ url, lastmod: null })),
    truncated: urls.length > maxEntries,
  };
}
