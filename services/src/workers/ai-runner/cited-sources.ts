import type { Source } from '@kesher/contracts';
import type { RetrievedPassage } from '@kesher/projections/knowledge/knowledge.queries';

/**
 * The files an answer drew on, for the run's `sources` (analytics, citations): passages cited as [n],
 * or whose file name the answer mentions; one entry per file, in the order first cited.
 */
export function citedSources(text: string, passages: readonly RetrievedPassage[]): Source[] {
  const cited = passages.filter((passage, i) => text.includes(`[${i + 1}]`) || text.includes(passage.filename));
  const seen = new Set<string>();
  return cited.flatMap((p) => {
    if (seen.has(p.fileId)) return [];
    seen.add(p.fileId);
    return [{ fileId: p.fileId, filename: p.filename, sourceUrl: p.sourceUrl, section: p.section }];
  });
}
