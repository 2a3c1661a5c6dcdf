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
 * What adding a finished crawl's pages did, from the numbers the progress message carries once they are
 * added (`completion`), so the panel says it in the page's language instead of showing the server's
 * English sentence. Null while the crawl runs, and for a message without them.
 */
export function completionCounts(
  progress: Pick<CrawlProgressMessage, 'status' | 'completion'>,
): CompletionCounts | null {
  if (progress.status !== 'completed' || !progress.completion) return null;
  const { added, unchanged, removed, not_added: notAdded, not_added_reason: reason } = progress.completion;
  return { added, unchanged, removed, notAdded, reason };
}
