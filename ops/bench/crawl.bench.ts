/**
 * The Smart Web Crawler against Crawlee (issue 11), on a deterministic local site the bench serves itself:
 * 2,000 blog posts with pagination and a sitemap index (one sitemap gzipped), 100 Hebrew posts, 20 slow
 * pages (200 ms), a Windows-1255 page, a PDF, a page over 300 KB, and traps (an endless calendar, faceted
 * search, a nesting path, redirect loops).
 *
 *   pages_per_s / crawlee_pages_per_s       Kesher's crawler (the worker's runner and page analysis, with
 *                                           its default limits: 8 at once, 4 per host) and Crawlee's
 *                                           CheerioCrawler with its default settings, same site, same
 *                                           page limit, each in its own process; the median of the rounds
 *   speedup, runs[]                         the ratio of each round (BENCH_CRAWL_ROUNDS, default 3, in turns),
 *                                           with the machine's load; speedup is their median (goal ≥ 5)
 *   cpu_speedup                             the same in pages per CPU second of each process: what a page
 *                                           costs, whatever share of the cores each crawl was given
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
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { firstBatchPages, heldOutPages } from '@kesher/services/crawler/fixtures/held-out-pages';
import { labelledPages, type LabelledPage } from '@kesher/services/crawler/fixtures/labelled-pages';
import { analyzeHtmlPage } from '@kesher/services/crawler/page-analysis';
import { SALES_CATEGORIES } from '@kesher/services/crawler/sales-page-detector';
import { startLocalSite } from '@kesher/services/crawler/testing/local-site';
import { repoRoot, round, writeResults } from './bench-kit.js';

const MAX_PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 2000);
/**
 * Rounds of Kesher and Crawlee, each round one crawl of each, in turns (Kesher first, then Crawlee first, …):
 * on a shared machine the load moves during a run, and one pair of numbers says little. Every round's
 * ratio is recorded; `speedup` is their median.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_CRAWL_ROUNDS ?? 3));

function child(
  which: 'kesher' | 'crawlee',
  startUrl: string,
  firstOnly = false,
): Promise<Record<string, number | string>> {
  return new Promise((resolveResult, reject) => {
    const process_ = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(repoRoot, 'ops/bench/crawl-child.ts'),
        which,
        startUrl,
        String(MAX_PAGES),
        ...(firstOnly ? ['first-only'] : []),
      ],
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
  console.log(`site at ${startUrl}; ${ROUNDS} rounds of up to ${MAX_PAGES} pages with Kesher and with Crawlee`);
  const rounds: Array<{ kesher: Record<string, number | string>; crawlee: Record<string, number | string> }> = [];
  const runs: Array<Record<string, number | string>> = [];
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    const loadBefore = loadavg()[0]!;
    const order = round_ % 2 === 0 ? 'kesher first' : 'crawlee first';
    // The first round's Kesher child also times the recrawls; later rounds time the first crawl only.
    const kesherRun = () => child('kesher', startUrl, round_ > 0);
    let kesher: Record<string, number | string>;
    let crawlee: Record<string, number | string>;
    if (round_ % 2 === 0) {
      kesher = await kesherRun();
      crawlee = await child('crawlee', startUrl);
    } else {
      crawlee = await child('crawlee', startUrl);
      kesher = await kesherRun();
    }
    rounds.push({ kesher, crawlee });
    const run = {
      order,
      pages_per_s: Number(kesher.pages_per_s),
      crawlee_pages_per_s: Number(crawlee.pages_per_s),
      speedup: round(Number(kesher.pages_per_s) / Number(crawlee.pages_per_s), 2),
      pages_per_cpu_s: Number(kesher.pages_per_cpu_s),
      crawlee_pages_per_cpu_s: Number(crawlee.pages_per_cpu_s),
      cpu_speedup: round(Number(kesher.pages_per_cpu_s) / Number(crawlee.pages_per_cpu_s), 2),
      load_1m_before: round(loadBefore, 2),
      load_1m_after: round(loadavg()[0]!, 2),
    };
    runs.push(run);
    console.log(`round ${round_ + 1}`, { kesher, crawlee, ...run });
  }

  const labelled = salesDetection(labelledPages);
  const all = salesDetection([...labelledPages, ...firstBatchPages, ...heldOutPages]);
  const heldOut = salesDetection(heldOutPages);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const speedups = runs.map((run) => Number(run.speedup));
  const { kesher, crawlee } = rounds[0]!;
  writeResults('crawl', {
    site: { posts: 2000, hebrew_posts: 100, slow_pages: 20, page_limit: MAX_PAGES },
    rounds: ROUNDS,
    pages_per_s: median(runs.map((run) => Number(run.pages_per_s))),
    crawlee_pages_per_s: median(runs.map((run) => Number(run.crawlee_pages_per_s))),
    speedup: round(median(speedups), 2),
    speedup_min: Math.min(...speedups),
    speedup_max: Math.max(...speedups),
    speedup_goal: 5,
    cpu_speedup: round(median(runs.map((run) => Number(run.cpu_speedup))), 2),
    runs,
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
    later_rounds: rounds.slice(1),
  });
} finally {
  await site.close();
}
