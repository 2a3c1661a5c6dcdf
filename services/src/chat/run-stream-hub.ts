import type { RunCompleted } from '@kesher/contracts';

/**
 * How a run ended, as its worker recorded it, with where in the log: the stream can then say so at once
 * instead of waiting for the threads read model, and the reader's next read waits for that position.
 */
export type RunOutcome = (
  | { status: 'completed'; message: { id: string; text: string; sources: RunCompleted['sources']; createdAt: number } }
  | { status: 'failed'; error: string }
  | { status: 'expired' }
) & { position: { commit: string; prepare: string } };

/**
 * One piece of a run's live answer; `seq` numbers deltas from 1 and is the SSE event id. The end carries
 * the outcome when the worker recorded one (absent: it gave up, or an adapter could not carry it).
 */
export type RunStreamEvent = { kind: 'delta'; seq: number; text: string } | { kind: 'end'; outcome?: RunOutcome };

/**
 * The port between the ai-runner (which produces an answer piece by piece) and the SSE route (which
 * shows it while it grows). Adapters: this file's in-process hub (API and worker in one process) and
 * `notify.run-stream-hub.ts` (Postgres LISTEN/NOTIFY, API and workers in separate processes).
 * Live pieces are a courtesy: the run's stored answer in the read model stays the final word.
 */
export interface RunStreamHub {
  /** The worker appends the answer as it is produced, then ends the run's stream. */
  append(runId: string, text: string): void;
  end(runId: string, outcome?: RunOutcome): void;
  /**
   * Replays the deltas after `afterSeq` that this hub still holds, then follows the live ones until the
   * end; returns the unsubscribe. What an adapter cannot deliver (a run that began before this process
   * listened, say) simply does not arrive, so callers also watch the read model.
   */
  follow(runId: string, afterSeq: number, listener: (event: RunStreamEvent) => void): () => void;
}

interface Entry {
  deltas: string[];
  ended: boolean;
  outcome?: RunOutcome;
  listeners: Set<(event: RunStreamEvent) => void>;
}

/**
 * Live answers shared between the ai-runner and the SSE route of the same process (the embedded
 * default and tests). Finished runs are kept for a while so a client that reconnects with
 * Last-Event-ID can resume; the oldest are dropped beyond `capacity`.
 */
export function createRunStreamHub(options: { capacity?: number } = {}): RunStreamHub {
  const capacity = options.capacity ?? 1000;
  const entries = new Map<string, Entry>();

  function entry(runId: string): Entry {
    let found = entries.get(runId);
    if (!found) {
      found = { deltas: [], ended: false, listeners: new Set() };
      entries.set(runId, found);
      for (const [oldest, old] of entries) {
        if (entries.size <= capacity) break;
        if (old.ended || old.listeners.size === 0) entries.delete(oldest);
      }
    }
    return found;
  }

  return {
    append(runId, text) {
      const current = entry(runId);
      if (current.ended || text === '') return;
      current.deltas.push(text);
      const event: RunStreamEvent = { kind: 'delta', seq: current.deltas.length, text };
      for (const listener of current.listeners) listener(event);
    },
    end(runId, outcome) {
      const current = entry(runId);
      if (current.ended) return;
      current.ended = true;
      current.outcome = outcome;
      const event: RunStreamEvent = outcome ? { kind: 'end', outcome } : { kind: 'end' };
      for (const listener of current.listeners) listener(event);
      current.listeners.clear();
    },
    follow(runId, afterSeq, listener) {
      const current = entry(runId);
      current.deltas.slice(Math.max(0, afterSeq)).forEach((text, i) => listener({ kind: 'delta', seq: afterSeq + i + 1, text }));
      if (current.ended) {
        listener(current.outcome ? { kind: 'end', outcome: current.outcome } : { kind: 'end' });
        return () => {};
      }
      current.listeners.add(listener);
      return () => current.listeners.delete(listener);
    },
  };
}
