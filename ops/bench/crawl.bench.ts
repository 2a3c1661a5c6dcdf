/**
 * The Smart Web Crawler against Crawlee (issue 11), on a deterministic local site the bench serves itself:
 * 2,000 blog posts with pagination and a sitemap index (one sitemap gzipped), 100 Hebrew posts, 20 slow
 * pages (200 ms), a Windows-1255 page, a PDF, a page over 300 KB, and traps (an endless calendar, faceted
 * search, a nesting path, redirect loops).
 *
 *   pages_per_s / crawlee_pages_per_s       Kesher's crawler (the worker's runner and page analysis, with
 *                                           its default limits: 8 at once, 4 per host) and Crawlee's
 *                                           CheerioCrawler with its default settings, same site, same
 *                                           page limit, each in its own process
 *   peak_rss_mb / crawlee_peak_rss_mb       each process's peak resident memory
 *   recrawl_unchanged_s                     a scheduled recrawl of the unchanged site, as the worker runs it
 *                                           (sitemap dates compared, the rest revalidated: 304s)
 *   recrawl_reingested                      pages it would read again (goal: none)
 *   revalidate_all_s                        the same site with every page asked for again (304s): a site
 *                                           without sitemap dates, or the weekly full revalidation
 *   sales_page_precision / _recall          the labelled pages (English and Hebrew) and the held-out ones
 *   extraction_boilerplate_ratio            navigation, footer, cookie-banner text in the extracted text of
 *                                           the site's pages
 *
 *   make bench-crawl        → bench-results/crawl.json
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { firstBatchPages, heldOutPages } from '@kesher/services/crawler/fixtures/held-out-pages';
import { labelledPages, type LabelledPage } from '@kesher/services/crawler/fixtures/labelled-pages';
import { analyzeHtmlPage } from '@kesher/services/crawler/page-analysis';
import { SALES_CATEGORIES } from '@kesher/services/crawler/sales-page-detector';
import { startLocalSite } from '@kesher/services/crawler/testing/local-site';
import { repoRoot, round, writeResults } from './bench-kit.js';

const MAX_PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 2000);

function child(which: 'kesher' | 'crawlee', startUrl: string): Promise<Record<string, number | string>> {
  return new Promise((resolveResult, reject) => {
    const process_ = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(repoRoot, 'ops/bench/crawl-child.ts'), which, startUrl, String(MAX_PAGES)],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    process_.stdout.on('data', (chunk) => (out += chunk));
    process_.stderr.on('data', (chunk) => (err += chunk));
    process_.on('exit', (code) => {
      const line = out
        .trim()
        .split('\n')
        .reverse()
        .find((text) => text.startsWith('{'));
      if (code !== 0 || !line)
        return reject(new Error(`${which} crawl failed (${code}):\n${err.slice(-3000)}\n${out.slice(-2000)}`));
      resolveResult(JSON.parse(line));
    });
  });
}

function salesDetection(pages: readonly LabelledPage[]) {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const page of pages) {
    const { isSalesPage } = analyzeHtmlPage({
      url: page.url,
      body: Buffer.from(page.html),
      contentTypeHeader: 'text/html; charset=utf-8',
      site: 'example.test',
    }).sales;
    const expected = SALES_CATEGORIES.has(page.category);
    if (isSalesPage && expected) truePositives++;
    else if (isSalesPage) falsePositives++;
    else if (expected) falseNegatives++;
  }
  return {
    pages: pages.length,
    hebrew: pages.filter((page) => page.lang === 'he').length,
    precision: round(truePositives / (truePositives + falsePositives), 3),
    recall: round(truePositives / (truePositives + falseNegatives), 3),
  };
}

const site = await startLocalSite({ posts: 2000, hebrewPosts: 100, slowPages: 20, slowMs: 200 });
try {
  const startUrl = `${site.origin}/`;
  console.log(`site at ${startUrl}; crawling up to ${MAX_PAGES} pages with Kesher, then with Crawlee`);
  const kesher = await child('kesher', startUrl);
  console.log('kesher', kesher);
  const crawlee = await child('crawlee', startUrl);
  console.log('crawlee', crawlee);

  const labelled = salesDetection(labelledPages);
  const all = salesDetection([...labelledPages, ...firstBatchPages, ...heldOutPages]);
  const heldOut = salesDetection(heldOutPages);
  const pagesPerS = Number(kesher.pages_per_s);
  const crawleePagesPerS = Number(crawlee.pages_per_s);
  writeResults('crawl', {
    site: { posts: 2000, hebrew_posts: 100, slow_pages: 20, page_limit: MAX_PAGES },
    pages_per_s: pagesPerS,
    crawlee_pages_per_s: crawleePagesPerS,
    speedup: round(pagesPerS / crawleePagesPerS, 2),
    peak_rss_mb: kesher.peak_rss_mb,
    crawlee_peak_rss_mb: crawlee.peak_rss_mb,
    first_crawl_s: kesher.seconds,
    crawlee_s: crawlee.seconds,
    pages: kesher.pages,
    crawlee_pages: crawlee.pages,
    recrawl_unchanged_s: kesher.recrawl_seconds,
    recrawl_share_of_first: round(Number(kesher.recrawl_seconds) / Number(kesher.seconds), 3),
    recrawl_left_alone_by_sitemap: kesher.recrawl_left_alone_by_sitemap,
    recrawl_not_modified: kesher.recrawl_not_modified,
    recrawl_reingested: kesher.recrawl_reingested,
    revalidate_all_s: kesher.revalidate_all_seconds,
    revalidate_all_share_of_first: round(Number(kesher.revalidate_all_seconds) / Number(kesher.seconds), 3),
    sales_page_precision: all.precision,
    sales_page_recall: all.recall,
    sales_pages: { labelled, held_out_never_tuned: heldOut, all },
    extraction_boilerplate_ratio: kesher.extraction_boilerplate_ratio,
    kesher,
    crawlee,
  });
} finally {
  await site.close();
}
