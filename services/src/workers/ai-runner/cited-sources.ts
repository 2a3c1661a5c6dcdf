import type { Source } from '@kesher/contracts';
import type { RetrievedPassage } from '../../knowledge/index.js';

/**
 * The files an answer drew on, for the run's `sources` (analytics, citations): the passages the provider
 * says it quoted when it says so (the built-in engine), else passages cited as [n] or whose file name the
 * answer mentions; one entry per file, in the order first cited.
 */
export function citedSources(
  text: string,
  passages: readonly RetrievedPassage[],
  quoted?: readonly RetrievedPassage[],
): Source[] {
  const cited =
    quoted ?? passages.filter((passage, i) => text.includes(`[${i + 1}]`) || text.includes(passage.filename));
  const seen = new Set<string>();
  return cited.flatMap((p) => {
    if (seen.has(p.fileId)) return [];
    seen.add(p.fileId);
    return [{ fileId: p.fileId, filename: p.filename, sourceUrl: p.sourceUrl, section: p.section }];
  });
}
