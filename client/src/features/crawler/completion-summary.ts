import type { CrawlProgressMessage } from '@kesher/contracts';

export interface CompletionCounts {
  added: number;
  unchanged: number;
  removed: number;
  notAdded: number;
  /** Why pages were left out, as the server said it (a catalogue text the client may translate). */
  reason: string | null;
}

/**
 * The server's completion sentence, e.g. "12 pages added to the assistant's knowledge, 3 unchanged,
 * 1 removed (no longer on the site). 2 not added: <reason>" (services/src/workers/crawler, `linkedMessage`).
 * The progress message carries only `pages_linked_to_assistant` (added + unchanged), so the breakdown is
 * read from this fixed sentence's numbers and the panel says it in the page's language.
 */
const SENTENCE =
  /^(\d+) pages? added to the assistant's knowledge(?:, (\d+) unchanged)?(?:, (\d+) removed \(no longer on the site\))?\.(?: (\d+) not added(?:: (.+)|\.))?$/s;

export function completionCounts(progress: Pick<CrawlProgressMessage, 'status' | 'message' | 'pages_linked_to_assistant'>): CompletionCounts | null {
  if (progress.status !== 'completed' || !progress.message) return null;
  const match = SENTENCE.exec(progress.message.trim());
  if (!match) return null;
  return {
    added: Number(match[1]),
    unchanged: Number(match[2] ?? 0),
    removed: Number(match[3] ?? 0),
    notAdded: Number(match[4] ?? 0),
    reason: match[5]?.trim() || null,
  };
}
