/**
 * One crawler of `make bench-crawl`, in a process of its own so that its peak memory is its own:
 *
 *   npx tsx ops/bench/crawl-child.ts kesher  <start url> <max pages> [first-only]
 *       first crawl, then (unless first-only) a scheduled recrawl of the unchanged site
 *   npx tsx ops/bench/crawl-child.ts crawlee <start url> <max pages>
 *       Crawlee's CheerioCrawler with its default settings
 *
 * Prints one JSON line with its figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { measureBoilerplate } from '@kesher/services/crawler/content-extractor';
import { runCrawl, type KnownPage } from '@kesher/services/crawler/crawl-runner';
import { planRevalidation, readSitemapLastmods } from '@kesher/services/crawler/revalidation';
import { BOILERPLATE } from '@kesher/services/crawler/testing/site-layout';
import { createBrowserLikeTransport } from '@kesher/services/outbound/browser-like.transport';
import { parseOutboundAllowlist } from '@kesher/services/outbound/outbound-allowlist';
import { createOutboundFetch } from '@kesher/services/outbound/outbound-fetch';
import { peakRssMb, round } from './bench-kit.js';

const [which, startArgument, maxPagesText, phases] = process.argv.slice(2);
if (!startArgument || !maxPagesText)
  throw new Error('usage: crawl-child.ts kesher|crawlee <start url> <max pages> [first-only]');
const startUrl: string = startArgument;
const maxPages = Number(maxPagesText);
/** The bench's later rounds time the first crawl only: the recrawls are measured once, in the first round. */
const firstOnly = phases === 'first-only';

/**
 * CPU seconds this process spent (user and system) since `from`: what a crawl cost whatever else the
 * machine was doing. Pages per wall-clock second depend on the share of the cores the process got.
 */
const cpuSecondsSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};

async function kesher() {
  const { transport, close } = createBrowserLikeTransport();
  // The crawler worker's own settings: the guarded fetch (the bench's site is on 127.0.0.1) and the runner's default limits.
  const fetch = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('127.0.0.1') });
  const kept = new Map<string, { url: string; sha: string | null } & KnownPage>();
  const lastmodOf = new Map<string, string | null>();
  let boilerplate = 0;
  let characters = 0;
  let started = performance.now();
  const cpuFrom = process.cpuUsage();
  const first = await runCrawl(
    {
      fetch,
      onEvent: (event) => {
        if (event.type === 'discovered') lastmodOf.set(event.entry.key, event.entry.lastmod ?? null);
        if (event.type !== 'fetched') return;
        const { page } = event;
        kept.set(page.key, {
          url: page.url,
          sha: page.html?.contentSha256 ?? null,
          etag: page.etag,
          lastModified: page.lastModified,
          bytes: page.bytes,
          links: page.links,
        });
        if (page.html) {
          const measured = measureBoilerplate(page.html.text, BOILERPLATE);
          boilerplate += measured.boilerplateCharacters;
          characters += measured.totalCharacters;
        }
      },
    },
    { startUrl, maxPages, maxDepth: 50 },
  );
  const firstSeconds = (performance.now() - started) / 1000;
  const firstCpuSeconds = cpuSecondsSince(cpuFrom);
  const firstFigures = {
    pages: first.stats.kept,
    seconds: round(firstSeconds, 2),
    pages_per_s: round(first.stats.kept / firstSeconds),
    cpu_s: round(firstCpuSeconds, 2),
    pages_per_cpu_s: round(first.stats.kept / firstCpuSeconds),
    outcome: `${first.status} (${first.reason}): ${first.message}`,
    failed: first.stats.failed,
    skipped: first.stats.skipped,
  };
  if (firstOnly) {
    close();
    return { ...firstFigures, peak_rss_mb: peakRssMb() };
  }

  // The scheduled recrawl (workers/crawler/crawler.worker.ts): the sitemaps read again, the pages whose date
  // moved (or that have none) asked for with conditional requests, the rest left alone.
  let notModified = 0;
  let reingested = 0;
  const crawledAt = new Date().toISOString();
  started = performance.now();
  const plan = planRevalidation({
    pages: [...kept].map(([key, page]) => ({
      key,
      url: page.url,
      sitemapLastmod: lastmodOf.get(key) ?? null,
      lastCrawledAt: crawledAt,
    })),
    lastmods: await readSitemapLastmods({ fetch }, startUrl),
    now: new Date(),
  });
  const second = await runCrawl(
    {
      fetch,
      onEvent: (event) => {
        if (event.type !== 'fetched') return;
        const before = kept.get(event.page.key);
        if (event.page.notModified) notModified++;
        else if (!before || (event.page.html?.contentSha256 ?? null) !== before.sha) reingested++;
      },
    },
    {
      startUrl,
      maxPages: plan.fetch.length + 1,
      maxDepth: 0,
      useSitemaps: false,
      known: kept,
      resume: {
        kept: [],
        settled: plan.unchanged.map((page) => page.key),
        pending: plan.fetch.map((page) => ({ url: page.url, key: page.key, depth: 0, source: 'resume' as const })),
      },
    },
  );
  const recrawlSeconds = (performance.now() - started) / 1000;

  // For comparison: every page revalidated (a site without sitemap dates, or the weekly full revalidation).
  let allNotModified = 0;
  started = performance.now();
  await runCrawl(
    { fetch, onEvent: (event) => void (event.type === 'fetched' && event.page.notModified && allNotModified++) },
    {
      startUrl,
      maxPages: kept.size + 1,
      maxDepth: 0,
      useSitemaps: false,
      known: kept,
      resume: {
        kept: [],
        settled: [],
        pending: [...kept].map(([key, page]) => ({ url: page.url, key, depth: 0, source: 'resume' as const })),
      },
    },
  );
  const revalidateAllSeconds = (performance.now() - started) / 1000;
  close();
  return {
    ...firstFigures,
    recrawl_seconds: round(recrawlSeconds, 2),
    recrawl_pages_asked: second.stats.kept + second.stats.failed,
    recrawl_left_alone_by_sitemap: plan.unchanged.length,
    recrawl_not_modified: notModified,
    recrawl_reingested: reingested,
    revalidate_all_seconds: round(revalidateAllSeconds, 2),
    revalidate_all_not_modified: allNotModified,
    extraction_boilerplate_ratio: characters === 0 ? 0 : round(boilerplate / characters, 4),
    peak_rss_mb: peakRssMb(),
  };
}

async function crawlee() {
  const storage = mkdtempSync(join(tmpdir(), 'kesher-bench-crawlee-'));
  process.env.CRAWLEE_STORAGE_DIR = storage;
  process.env.CRAWLEE_LOG_LEVEL = 'OFF';
  const { CheerioCrawler, log, LogLevel } = await import('@crawlee/cheerio');
  log.setLevel(LogLevel.OFF);
  let pages = 0;
  // Crawlee's defaults: autoscaled concurrency, retries, sessions, its request queue; only the page limit is set.
  const crawler = new CheerioCrawler({
    maxRequestsPerCrawl: maxPages,
    async requestHandler({ $, enqueueLinks }) {
      pages++;
      $('title').text();
      await enqueueLinks();
    },
  });
  const started = performance.now();
  const cpuFrom = process.cpuUsage();
  await crawler.run([startUrl]);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpuFrom);
  rmSync(storage, { recursive: true, force: true });
  return {
    pages,
    seconds: round(seconds, 2),
    pages_per_s: round(pages / seconds),
    cpu_s: round(cpuSeconds, 2),
    pages_per_cpu_s: round(pages / cpuSeconds),
    peak_rss_mb: peakRssMb(),
  };
}

const result = which === 'crawlee' ? await crawlee() : await kesher();
console.log(JSON.stringify(result));
process.exit(0);
