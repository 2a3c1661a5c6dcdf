import { comparePositions, type AllPosition } from '@kesher/contracts';
import type { AwaitReadModels } from './read-model-progress.js';

/**
 * Read-your-writes moved from the write to the next read. Posting a message and requesting a run are
 * answered as soon as their events are in the log: the answer is built from the command itself, so it
 * need not wait for the read models. What the writer reads next about that thread (its messages, the
 * run it polls or streams) waits instead until the read models have applied the thread's last write —
 * by then they usually have, so the wait costs nothing, and the two POSTs of every chat turn no longer
 * each wait for the projector.
 *
 * The same marks keep the plan's monthly message count honest without a wait on every message: see
 * plans/message-quota.ts.
 *
 * The marks live in this API process (a bounded map, oldest dropped first): a deployment with several
 * API processes keeps a conversation on one of them, as it does for its SSE stream.
 */
export interface WriteMarks {
  /** Notes that `key`'s newest write is at `position` and wrote events of `eventTypes`. */
  note(key: string, position: AllPosition, eventTypes: readonly string[]): void;
  /** Resolves once the read models show every write noted for `key` (at once when there is none). */
  settle(key: string): Promise<void>;
  /** How many writes were noted for `key` since its last settled read (some may be applied already). */
  pending(key: string): number;
}

interface Mark {
  position: AllPosition;
  eventTypes: Set<string>;
  count: number;
}

export function createWriteMarks(deps: { awaitReadModels: AwaitReadModels; max?: number }): WriteMarks {
  const max = deps.max ?? 10_000;
  const marks = new Map<string, Mark>();
  return {
    note(key, position, eventTypes) {
      const previous = marks.get(key);
      marks.delete(key);
      // Types accumulate until a read settles them: the newest position covers the earlier writes, but
      // only if we also wait for the read models that take the earlier writes' types.
      const types = new Set([...(previous?.eventTypes ?? []), ...eventTypes]);
      const newest = previous && comparePositions(previous.position, position) > 0 ? previous.position : position;
      marks.set(key, { position: newest, eventTypes: types, count: (previous?.count ?? 0) + 1 });
      if (marks.size > max) marks.delete(marks.keys().next().value!);
    },
    async settle(key) {
      const mark = marks.get(key);
      if (!mark) return;
      const reached = await deps.awaitReadModels(mark.position, [...mark.eventTypes]);
      // A later write may have replaced the mark meanwhile; only the one we waited for is done.
      if (reached && marks.get(key) === mark) marks.delete(key);
    },
    pending: (key) => marks.get(key)?.count ?? 0,
  };
}
