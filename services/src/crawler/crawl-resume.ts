import type { FrontierEntry, FrontierResume } from './crawl-frontier.js';
import type { CrawlEvent } from './crawl-runner.js';

/**
 * What a crawl had done, rebuilt from its events (as recorded, in order): the pages it kept, the
 * addresses it settled (failed or skipped) and those it discovered but never finished. The worker
 * rebuilds the same from the event store after a restart and hands it to runCrawl as `resume`.
 */
export function resumeFromEvents(events: Iterable<CrawlEvent>): FrontierResume {
  const kept = new Map<string, number>();
  const settled = new Set<string>();
  const discovered = new Map<string, FrontierEntry>();
  for (const event of events) {
    if (event.type === 'discovered') discovered.set(event.entry.key, event.entry);
    else if (event.type === 'fetched') kept.set(event.page.key, event.page.bytes);
    else if (event.type === 'failed' || event.type === 'skipped') settled.add(event.key);
  }
  const pending = [...discovered.values()].filter((entry) => !kept.has(entry.key) && !settled.has(entry.key));
  return { kept: [...kept].map(([key, bytes]) => ({ key, bytes })), settled: [...settled], pending };
}
