import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { buildDocx } from '../../knowledge/testing/office-builders.js';
import { writePdf } from '../../knowledge/testing/pdf-writer.js';
import { startTestServer, type TestServer } from '../../outbound/testing/test-server.js';
import { siteLayout } from './site-layout.js';
import { encodeWindows1255 } from './windows-1255.js';

/**
 * A deterministic local website for crawler tests (and the crawl benchmark): an English and a Hebrew
 * part, a blog of `posts` posts with pagination, a sitemap index with a gzipped sitemap, robots.txt,
 * and every hazard the crawler must handle — an endless calendar, faceted search, a nesting relative
 * link, redirect loops, a 404, a page over 300 KB, a Windows-1255 page without a charset header, a PDF,
 * tracking parameters, a canonical duplicate, slow pages, an off-site link. It serves ETags and answers
 * conditional requests, and pages can be changed between crawls. Served on 127.0.0.1 only.
 */
export interface LocalSiteOptions {
  posts?: number;
  /** Hebrew posts under /he/. */
  hebrewPosts?: number;
  /** Pages /slow/0… answering after `slowMs`. */
  slowPages?: number;
  slowMs?: number;
  robotsTxt?: string;
  /** Every response waits this long (politeness and concurrency tests). */
  latencyMs?: number;
  /** The home page also links a catering menu as a real PDF and a wholesale price list as a DOCX (with text). */
  documents?: boolean;
}

export interface LocalSite extends TestServer {
  origin: string;
  /** Paths (decoded, with their query) requested, with the time each arrived (ms since epoch) and whether it was answered 304. */
  log: Array<{ path: string; at: number; notModified: boolean }>;
  maxInFlight: number;
  /** Gives a page new content (its ETag changes, and a post's sitemap lastmod). */
  change(path: string): void;
  /** Takes a page off the site: it answers 404 from now on and leaves the sitemap (a recrawl's orphan). */
  remove(path: string): void;
  /** Paths of the pages a complete crawl keeps (HTML with text, the PDF). */
  contentPaths: string[];
}

const ROBOTS = (origin: string) => `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap_index.xml\n`;

export async function startLocalSite(options: LocalSiteOptions = {}): Promise<LocalSite> {
  const posts = options.posts ?? 12;
  const hebrewPosts = options.hebrewPosts ?? 4;
  const slowPages = options.slowPages ?? 0;
  const versions = new Map<string, number>();
  const removed = new Set<string>();
  const log: LocalSite['log'] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let origin = '';

  const page = (lang: 'en' | 'he', title: string, content: string, head = '') =>
    siteLayout({ lang, title, content, head });
  const postLinks = (from: number, to: number, prefix: string) =>
    Array.from(
      { length: Math.max(0, to - from) },
      (_unused, i) => `<li><a href="${prefix}${from + i}">Post ${from + i}</a></li>`,
    ).join('');
  const version = (path: string) => versions.get(path) ?? 0;

  /** The site's pages: path → [content type, body]. Null for a path that is not a page. */
  function render(
    path: string,
    query: URLSearchParams,
  ): { type: string; body: Buffer | Uint8Array; status?: number; headers?: Record<string, string> } | null {
    const v = version(path) > 0 ? ` (revision ${version(path)})` : '';
    const html = (body: string) => ({ type: 'text/html; charset=utf-8', body: Buffer.from(body) });
    switch (path) {
      case '/robots.txt':
        return { type: 'text/plain', body: Buffer.from(options.robotsTxt ?? ROBOTS(origin)) };
      case '/sitemap_index.xml':
        return {
          type: 'application/xml',
          body: Buffer.from(
            `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap><sitemap><loc>${origin}/sitemap-posts.xml</loc></sitemap><sitemap><loc>https://other.test/sitemap.xml</loc></sitemap></sitemapindex>`,
          ),
        };
      case '/sitemap-pages.xml.gz':
        return {
          type: 'application/gzip',
          body: gzipSync(
            `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
              '/',
              '/pricing',
              '/about',
              '/faq',
              '/he/',
              '/legacy',
              '/private/secret',
              'https://other.test/x',
            ]
              .filter((p) => !removed.has(p))
              .map((p) => `<url><loc>${p.startsWith('http') ? p : origin + p}</loc></url>`)
              .join('')}</urlset>`,
          ),
        };
      case '/sitemap-posts.xml':
        // Like a CMS: a changed post gets a new lastmod, a removed one leaves the sitemap.
        return {
          type: 'application/xml',
          body: Buffer.from(
            `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
              { length: posts },
              (_unused, i) => `/blog/post-${i}`,
            )
              .filter((p) => !removed.has(p))
              .map(
                (p) =>
                  `<url><loc>${origin}${p}</loc><lastmod>${new Date(Date.UTC(2025, 0, 1 + version(p))).toISOString().slice(0, 10)}</lastmod></url>`,
              )
              .join('')}</urlset>`,
          ),
        };
      case '/':
        return html(
          page(
            'en',
            'Crumb & Co. bakery',
            `<h1>Crumb &amp; Co., a sourdough bakery in Tel Aviv${v}</h1><p>We bake bread and cakes every night and deliver them in the morning.</p>
          <ul><li><a href="/pricing">Our prices</a></li><li><a href="/about?utm_source=home#team">About us</a></li><li><a href="/blog">Blog</a></li><li><a href="/he/">עברית</a></li>
          <li><a href="/events/2026/01">Events</a></li><li><a href="/search?q=bread">Search</a></li><li><a href="a/b/">Nested</a></li><li><a href="/old-pricing">Old prices</a></li>
          <li><a href="/loop1">Loop</a></li><li><a href="/missing">Missing</a></li><li><a href="/big">The long story</a></li><li><a href="/legacy">ישן</a></li><li><a href="/files/menu.pdf">Menu</a></li>
          <li><a href="/products/mug?ref=home">Mug</a></li><li><a href="/private/secret">Staff</a></li><li><a href="https://other.test/">Friends</a></li><li><a href="mailto:hi@example.test">Mail</a></li>
          ${Array.from({ length: slowPages }, (_unused, i) => `<li><a href="/slow/${i}">Slow ${i}</a></li>`).join('')}
          ${options.documents ? '<li><a href="/files/catering.pdf">Catering</a></li><li><a href="/files/wholesale.docx">Wholesale</a></li>' : ''}</ul>`,
          ),
        );
      case '/pricing':
        return html(
          page(
            'en',
            'Pricing',
            `<h1>Price list${v}</h1><p>Fresh bread and cakes at honest prices.</p><ul><li>Sourdough loaf — $8.50</li><li>Cheesecake — $32</li><li>Cookie box — $15</li></ul><p>Delivery is free above $50.</p>`,
          ),
        );
      case '/about':
        return html(
          page(
            'en',
            'About us',
            `<h1>About us${v}</h1><p>Crumb &amp; Co. was founded in 2009 by two friends who missed real bread.</p><h2>Our story</h2><p>We still mix every dough by hand.</p>`,
          ),
        );
      case '/faq':
        return html(
          page(
            'en',
            'FAQ',
            `<h1>Frequently asked questions${v}</h1><details><summary>Do you deliver on Saturdays?</summary><p>No, deliveries run Sunday to Friday.</p></details>`,
          ),
        );
      case '/products/mug':
        return html(
          page(
            'en',
            'Bakery mug',
            `<h1>Bakery mug${v}</h1><p>$14</p><p>Our logo on a stoneware mug.</p><button>Add to cart</button>`,
            `<link rel="canonical" href="${origin}/products/mug">`,
          ),
        );
      case '/blog': {
        const pageNumber = Number(query.get('page') ?? '1');
        const perPage = 10;
        const more = pageNumber * perPage < posts ? `<a href="/blog?page=${pageNumber + 1}">Older posts</a>` : '';
        return html(
          page(
            'en',
            'Blog',
            `<h1>Blog, page ${pageNumber}</h1><p>Notes from the night shift.</p><ul>${postLinks((pageNumber - 1) * perPage, Math.min(posts, pageNumber * perPage), '/blog/post-')}</ul>${more}`,
          ),
        );
      }
      case '/he/':
        return html(
          page(
            'he',
            'מאפיית השקד',
            `<h1>מאפיית השקד בתל אביב${v}</h1><p>אנחנו אופים לחם מחמצת ועוגות בכל לילה.</p><ul><li><a href="/he/מחירון">מחירון</a></li>${Array.from({ length: hebrewPosts }, (_unused, i) => `<li><a href="/he/פוסט-${i}">פוסט ${i}</a></li>`).join('')}</ul>`,
          ),
        );
      case '/he/מחירון':
        return html(
          page(
            'he',
            'מחירון',
            `<h1>מחירון${v}</h1><p>לחם מחמצת – 28 ₪</p><p>עוגת גבינה – 120 ₪</p><p>מארז עוגיות – 60 ₪</p>`,
          ),
        );
      case '/legacy':
        return {
          type: 'text/html',
          body: encodeWindows1255(
            `<html><head><meta charset="windows-1255"><title>עמוד ישן</title></head><body><main><h1>ברוכים הבאים לאתר הישן</h1><p>כאן מופיע מידע על המאפייה משנת 2005.</p></main></body></html>`,
          ),
        };
      case '/big':
        return html(
          page(
            'en',
            'The long story',
            `<h1>The long story</h1>${'<p>Every loaf begins the evening before, when the starter is fed and the flour is weighed.</p>'.repeat(5000)}`,
          ),
        );
      case '/files/menu.pdf':
        return { type: 'application/pdf', body: Buffer.from('%PDF-1.4\n% a tiny stand-in for a menu\n%%EOF\n') };
      case '/files/catering.pdf':
        if (!options.documents) return null;
        return {
          type: 'application/pdf',
          body: writePdf([
            {
              heading: `Catering menu${v}`,
              paragraphs: [
                'A platter of twelve rye rolls costs 45 dollars.',
                'Orders for events need two days of notice.',
              ],
            },
          ]),
        };
      case '/files/wholesale.docx':
        if (!options.documents) return null;
        return {
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          body: buildDocx([
            { heading: `Wholesale price list${v}` },
            { paragraph: 'Cafes buy our baguettes at 3 dollars each, from fifty a week.' },
          ]),
        };
      case '/old-pricing':
        return { type: 'text/html', body: Buffer.alloc(0), status: 301, headers: { location: '/pricing' } };
      case '/loop1':
        return { type: 'text/html', body: Buffer.alloc(0), status: 302, headers: { location: '/loop2' } };
      case '/loop2':
        return { type: 'text/html', body: Buffer.alloc(0), status: 302, headers: { location: '/loop1' } };
      case '/search': {
        // Faceted search: every result page links to more sort and filter combinations.
        const base = Number(query.get('p') ?? '0');
        const links = Array.from(
          { length: 6 },
          (_unused, i) => `<a href="/search?q=bread&sort=${base + i}&p=${base + i + 1}">sort ${base + i}</a>`,
        ).join(' ');
        return html(page('en', 'Search', `<h1>Search results</h1><p>Results for bread.</p><p>${links}</p>`));
      }
    }
    let match = /^\/blog\/post-(\d+)$/.exec(path);
    if (match && Number(match[1]) < posts) {
      const n = Number(match[1]);
      return html(
        page(
          'en',
          `Post ${n}`,
          `<h1>Post ${n}: notes on sourdough${v}</h1><p>Post ${n} is about sourdough, long fermentation and the oven at night.</p><p>Read also <a href="/blog/post-${(n + 1) % posts}">the next post</a>.</p>`,
        ),
      );
    }
    match = /^\/he\/פוסט-(\d+)$/.exec(path);
    if (match && Number(match[1]) < hebrewPosts) {
      return html(
        page('he', `פוסט ${match[1]}`, `<h1>פוסט ${match[1]} על לחם מחמצת${v}</h1><p>התפחה איטית ואפייה על אבן.</p>`),
      );
    }
    match = /^\/events\/(\d{4})\/(\d{2})$/.exec(path);
    if (match) {
      // An endless calendar: each month links to the next.
      const year = Number(match[1]);
      const month = Number(match[2]);
      const next = month === 12 ? `${year + 1}/01` : `${year}/${String(month + 1).padStart(2, '0')}`;
      return html(
        page(
          'en',
          `Events ${year}-${month}`,
          `<h1>Events in ${year}-${match[2]}</h1><p>No events this month.</p><a href="/events/${next}">Next month</a>`,
        ),
      );
    }
    if (path === '/slow/')
      return html(
        page(
          'en',
          'Slow pages',
          `<h1>Slow pages</h1><p>Pages that take their time.</p><ul>${Array.from({ length: slowPages }, (_unused, i) => `<li><a href="/slow/${i}">Slow ${i}</a></li>`).join('')}</ul>`,
        ),
      );
    if (/^\/(a\/b\/)+$/.test(path))
      return html(
        page(
          'en',
          'Nested',
          `<h1>Nested</h1><p>A page that links to itself one level deeper.</p><a href="a/b/">deeper</a>`,
        ),
      );
    match = /^\/slow\/(\d+)$/.exec(path);
    if (match && Number(match[1]) < slowPages)
      return html(page('en', `Slow ${match[1]}`, `<h1>Slow page ${match[1]}</h1><p>This page takes its time.</p>`));
    return null;
  }

  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const path = decodeURIComponent(url.pathname);
    const logged = `${path}${url.search}`;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const done = () => {
      inFlight--;
    };
    const rendered = removed.has(path) ? null : render(path, url.searchParams);
    const delayMs = (path.startsWith('/slow/') ? (options.slowMs ?? 200) : 0) + (options.latencyMs ?? 0);
    setTimeout(() => {
      if (!rendered) {
        log.push({ path: logged, at: Date.now(), notModified: false });
        response.statusCode = 404;
        response.end('not found');
        return done();
      }
      const etag = `"${createHash('sha1').update(rendered.body).digest('hex').slice(0, 16)}"`;
      const notModified = request.headers['if-none-match'] === etag;
      log.push({ path: logged, at: Date.now(), notModified });
      response.statusCode = notModified ? 304 : (rendered.status ?? 200);
      for (const [name, value] of Object.entries(rendered.headers ?? {})) response.setHeader(name, value);
      response.setHeader('content-type', rendered.type);
      if (!rendered.status) response.setHeader('etag', etag);
      response.end(notModified ? undefined : rendered.body);
      done();
    }, delayMs);
  };

  const server = await startTestServer(handler);
  origin = `http://127.0.0.1:${server.port}`;
  const contentPaths = [
    '/',
    '/pricing',
    '/about',
    '/faq',
    '/products/mug',
    '/he/',
    '/he/מחירון',
    '/legacy',
    '/big',
    '/files/menu.pdf',
    ...Array.from({ length: Math.ceil(posts / 10) }, (_unused, i) => (i === 0 ? '/blog' : `/blog?page=${i + 1}`)),
    ...Array.from({ length: posts }, (_unused, i) => `/blog/post-${i}`),
    ...Array.from({ length: hebrewPosts }, (_unused, i) => `/he/פוסט-${i}`),
    ...Array.from({ length: slowPages }, (_unused, i) => `/slow/${i}`),
    ...(options.documents ? ['/files/catering.pdf', '/files/wholesale.docx'] : []),
  ];
  return {
    ...server,
    origin,
    log,
    get maxInFlight() {
      return maxInFlight;
    },
    change(path: string) {
      versions.set(path, version(path) + 1);
    },
    remove(path: string) {
      removed.add(path);
    },
    contentPaths,
  };
}
