import type { PageFetched, PageScored } from '@kesher/contracts';
import { type AssistantKeywords, normalizeUrl, scoreRelevance } from '../../crawler/index.js';
import type { PageText } from './crawl-recording.js';

/**
 * How many of the crawl's kept pages link to each page, counted from the links every kept page
 * recorded: the same figure whether the crawl ran in one go or was carried on after a restart.
 */
export function inboundLinks(pages: Iterable<PageFetched>): Map<string, number> {
  const from = new Map<string, Set<string>>();
  for (const page of pages) {
    for (const link of page.links) {
      const key = normalizeUrl(link);
      if (!key || key === page.key) continue;
      let sources = from.get(key);
      if (!sources) from.set(key, (sources = new Set()));
      sources.add(page.key);
    }
  }
  return new Map([...from].map(([key, sources]) => [key, sources.size]));
}

/**
 * The relevance score of every kept page, once the crawl's link graph is complete. Texts kept in memory
 * by this run are used as they are; a page kept before a restart is read back from the blob store.
 */
export async function scorePages(input: {
  crawlId: string;
  pages: readonly PageFetched[];
  keywords: AssistantKeywords;
  texts: ReadonlyMap<string, PageText>;
  readText: (sha256: string) => Promise<string | undefined>;
}): Promise<PageScored[]> {
  const inbound = inboundLinks(input.pages);
  const maxInboundLinks = Math.max(0, ...inbound.values());
  const scores: PageScored[] = [];
  for (const page of input.pages) {
    const known = input.texts.get(page.key);
    const text =
      known?.text ??
      (page.kind === 'html' && page.contentSha256 ? ((await input.readText(page.contentSha256)) ?? '') : '');
    const score = scoreRelevance(
      {
        depth: page.depth,
        inboundLinks: inbound.get(page.key) ?? 0,
        contentCharacters: page.characters || text.length,
        title: page.title,
        headings: known?.headings ?? [],
        text,
      },
      { keywords: input.keywords, maxInboundLinks },
    );
    scores.push({
      crawlId: input.crawlId,
      key: page.key,
      relevanceScore: Math.min(1, Math.max(0, score.score)),
      explanation: score.explanation.slice(0, 1000),
    });
  }
  return scores;
}
