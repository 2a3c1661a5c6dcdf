import { comparePositions, type AllPosition } from '@kesher/contracts';
import type { AwaitReadModels } from './read-model-progress.js';

/**
 * Writes noted per key until the read models show them: a reader that knows what was written in this
 * process a moment ago waits for exactly those writes, and only when it must. The plan's monthly message
 * quota keeps them per owner (plans/message-quota.ts): far from the limit the read model's count plus the
 * runs accepted since is enough.
 *
 * The marks live in this API process (a bounded map, oldest dropped first), so another API process does
 * not know them. The chat no longer uses them (issue 23): its reads answer from the thread's stream.
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
