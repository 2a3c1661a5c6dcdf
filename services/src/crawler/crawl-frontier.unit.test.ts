import { describe, expect, it } from 'vitest';
import { createFrontier, type FrontierEntry } from './crawl-frontier.js';

const entry = (path: string, depth = 1, host = 'example.test'): FrontierEntry => ({
  url: `https://${host}${path}`,
  key: `https://${host}${path}`,
  depth,
  source: 'link',
});
const fetchOf = (decision: ReturnType<ReturnType<typeof createFrontier>['next']>) =>
  decision.kind === 'fetch' ? decision.entry.url : decision;

describe('the crawl frontier', () => {
  it('goes breadth first and takes each key once', () => {
    const frontier = createFrontier({ limits: { maxPages: 10, maxDepth: 3 } });
    expect(frontier.offer(entry('/deep', 2))).toBe('queued');
    expect(frontier.offer(entry('/a', 1))).toBe('queued');
    expect(frontier.offer(entry('/a', 1))).toBe('seen');
    expect(frontier.offer(entry('/too-deep', 4))).toBe('too-deep');
    expect(frontier.offer({ ...entry('/', 0), source: 'start' })).toBe('queued');
    expect([fetchOf(frontier.next(0)), fetchOf(frontier.next(0)), fetchOf(frontier.next(0))]).toEqual([
      'https://example.test/',
      'https://example.test/a',
      'https://example.test/deep',
    ]);
  });

  it('waits between starts on one host, not across hosts, and caps concurrency', () => {
    const frontier = createFrontier({ limits: { perHostDelayMs: 100, concurrency: 2, perHostConcurrency: 2 } });
    for (const path of ['/1', '/2', '/3']) frontier.offer(entry(path));
    frontier.offer(entry('/x', 1, 'shop.example.test'));
    expect(fetchOf(frontier.next(1000))).toBe('https://example.test/1');
    expect(fetchOf(frontier.next(1000))).toBe('https://shop.example.test/x'); // the other host is free
    expect(frontier.next(1000)).toEqual({ kind: 'idle' }); // two in flight: the global limit
    frontier.keep(entry('/1'), 10);
    expect(frontier.next(1050)).toEqual({ kind: 'wait', untilMs: 1100 });
    expect(fetchOf(frontier.next(1100))).toBe('https://example.test/2');
    frontier.setHostDelay('example.test', 500);
    frontier.keep(entry('/2'), 10);
    frontier.keep(entry('/x', 1, 'shop.example.test'), 10);
    // A new delay (robots.txt's Crawl-delay) spaces the starts after the next one.
    expect(fetchOf(frontier.next(1200))).toBe('https://example.test/3');
    frontier.keep(entry('/3'), 10);
    frontier.offer(entry('/4'));
    expect(frontier.next(1300)).toEqual({ kind: 'wait', untilMs: 1700 });
  });

  it('passes over a host at its limit and still hands out the earliest offered address across hosts', () => {
    const frontier = createFrontier({ limits: { concurrency: 8, perHostConcurrency: 1 } });
    const a = (path: string) => entry(path, 1, 'a.test');
    const b = (path: string) => entry(path, 1, 'b.test');
    for (const offered of [a('/1'), b('/1'), b('/2'), a('/2'), a('/3')]) frontier.offer(offered);
    expect(fetchOf(frontier.next(0))).toBe('https://a.test/1');
    expect(fetchOf(frontier.next(0))).toBe('https://b.test/1');
    expect(frontier.next(0)).toEqual({ kind: 'idle' }); // each host at its limit
    frontier.keep(a('/1'), 1);
    frontier.keep(b('/1'), 1);
    // Both hosts free again: b.test's /2 was offered before a.test's /2, so it goes first.
    expect([fetchOf(frontier.next(0)), fetchOf(frontier.next(0))]).toEqual(['https://b.test/2', 'https://a.test/2']);
    frontier.keep(a('/2'), 1);
    expect(fetchOf(frontier.next(0))).toBe('https://a.test/3');
    expect(frontier.stats()).toMatchObject({ queued: 0, inFlight: 2, kept: 3 });
  });

  it('stops at the page limit without starting more than it can keep', () => {
    const frontier = createFrontier({ limits: { maxPages: 2 } });
    for (const path of ['/1', '/2', '/3']) frontier.offer(entry(path));
    frontier.next(0);
    frontier.next(0);
    expect(frontier.next(0)).toEqual({ kind: 'idle' }); // two in flight may fill the budget
    frontier.keep(entry('/1'), 1);
    frontier.settle(entry('/2'), 'failed');
    expect(fetchOf(frontier.next(0))).toBe('https://example.test/3');
    frontier.keep(entry('/3'), 1);
    expect(frontier.next(0)).toEqual({ kind: 'done', reason: 'page-limit' });
  });

  it('refuses the page that would pass the size limit, and stops', () => {
    const frontier = createFrontier({ limits: { maxTotalBytes: 100 } });
    for (const path of ['/1', '/2', '/3']) frontier.offer(entry(path));
    frontier.next(0);
    frontier.next(0);
    expect(frontier.keep(entry('/1'), 60)).toBe(true);
    expect(frontier.keep(entry('/2'), 60)).toBe(false);
    expect(frontier.stats()).toMatchObject({ kept: 1, totalBytes: 60, queued: 1 });
    expect(frontier.next(0)).toEqual({ kind: 'done', reason: 'size-limit' });
    expect(frontier.offer(entry('/4'))).toBe('stopped');
  });

  it('gives up after too many failures, and when cancelled', () => {
    const frontier = createFrontier({ limits: { maxFailures: 2 } });
    for (const path of ['/1', '/2', '/3']) frontier.offer(entry(path));
    frontier.next(0);
    frontier.next(0);
    frontier.settle(entry('/1'), 'failed');
    frontier.settle(entry('/2'), 'failed');
    expect(frontier.next(0)).toEqual({ kind: 'done', reason: 'failure-limit' });
    const cancelled = createFrontier();
    cancelled.offer(entry('/1'));
    cancelled.stop('cancelled');
    expect(cancelled.next(0)).toEqual({ kind: 'done', reason: 'cancelled' });
  });

  it('resumes: kept pages count and are never offered again; pending ones are fetched', () => {
    const frontier = createFrontier({
      limits: { maxPages: 3 },
      resume: {
        kept: [{ key: 'https://example.test/', bytes: 500 }],
        settled: ['https://example.test/404'],
        pending: [entry('/a'), entry('/b', 2)],
      },
    });
    expect(frontier.stats()).toMatchObject({ kept: 1, totalBytes: 500, queued: 2, discovered: 4 });
    expect(frontier.offer({ ...entry('/', 0), source: 'start' })).toBe('seen');
    expect(frontier.offer(entry('/404'))).toBe('seen');
    expect(fetchOf(frontier.next(0))).toBe('https://example.test/a');
    expect(fetchOf(frontier.next(0))).toBe('https://example.test/b');
  });
});
