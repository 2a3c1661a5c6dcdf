import type { DailyActivityQueries } from '@kesher/projections/analytics/daily-activity/daily-activity.queries';
import type { ReadModelProgress } from '../platform/projections/read-model-progress.js';

/** What a live-counters subscriber receives: all-time conversations, messages and feedback. */
export interface LiveCountersValue {
  /** The owner whose figures these are; null for an operator's every-owner sum. */
  owner_id: string | null;
  conversations: number;
  messages: number;
  feedback: number;
  /** When the read model was read (ISO 8601). */
  at: string;
}

/** `*`: every owner (operators). */
export type LiveKey = string;
export const EVERY_OWNER: LiveKey = '*';

/** The read model the counters come from. */
const SOURCE = 'analytics-activity';
/** How long one wait for the read model lasts before the watch list is looked at again. */
const WAIT_MS = 1000;

/**
 * Live counters for GraphQL subscriptions, fed by the daily-activity read model: while anybody watches,
 * each time that read model commits a batch (its progress moves) the watched owners' totals are read
 * once — one query for all of them — and the ones that changed are published. A burst of batches
 * during a read is answered by the next read, so subscribers see the newest figures, not every step.
 */
export function createLiveCounters(deps: {
  readModels: Pick<ReadModelProgress, 'position' | 'waitForMove'>;
  activity: Pick<DailyActivityQueries, 'liveCounters' | 'liveCountersOfAll'>;
  publish: (key: LiveKey, value: LiveCountersValue) => void | Promise<void>;
  clock?: () => Date;
  onError?: (error: unknown) => void;
}) {
  const clock = deps.clock ?? (() => new Date());
  const watchers = new Map<LiveKey, number>();
  const published = new Map<LiveKey, string>();
  let running: Promise<void> | undefined;
  let closed = false;

  async function read(keys: readonly LiveKey[]): Promise<LiveCountersValue[]> {
    const owners = keys.filter((key) => key !== EVERY_OWNER);
    const at = clock().toISOString();
    const found = new Map((await deps.activity.liveCounters(owners)).map((row) => [row.ownerId, row]));
    const values: LiveCountersValue[] = owners.map((ownerId) => {
      const row = found.get(ownerId);
      return {
        owner_id: ownerId,
        conversations: row?.conversations ?? 0,
        messages: row?.messages ?? 0,
        feedback: row?.feedback ?? 0,
        at,
      };
    });
    if (keys.includes(EVERY_OWNER)) values.push({ owner_id: null, ...(await deps.activity.liveCountersOfAll()), at });
    return values;
  }

  const keyOf = (value: LiveCountersValue): LiveKey => value.owner_id ?? EVERY_OWNER;
  const figures = (value: LiveCountersValue) => `${value.conversations}|${value.messages}|${value.feedback}`;

  async function loop() {
    let mark = deps.readModels.position(SOURCE);
    while (!closed && watchers.size > 0) {
      const moved = await deps.readModels.waitForMove(SOURCE, mark, WAIT_MS);
      if (!moved || closed) continue;
      // Noted before reading, so a batch committed during the read wakes the next round.
      mark = deps.readModels.position(SOURCE);
      try {
        for (const value of await read([...watchers.keys()])) {
          const key = keyOf(value);
          if (!watchers.has(key) || published.get(key) === figures(value)) continue;
          published.set(key, figures(value));
          await deps.publish(key, value);
        }
      } catch (error) {
        deps.onError?.(error);
      }
    }
    running = undefined;
  }

  return {
    /** The figures now, for a new subscriber's first message. */
    async current(key: LiveKey): Promise<LiveCountersValue> {
      const [value] = await read([key]);
      return value!;
    },

    /** Starts watching `key` until the returned function is called. */
    watch(key: LiveKey): () => void {
      watchers.set(key, (watchers.get(key) ?? 0) + 1);
      running ??= loop().catch((error) => {
        running = undefined;
        deps.onError?.(error);
      });
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        const left = (watchers.get(key) ?? 1) - 1;
        if (left > 0) watchers.set(key, left);
        else {
          watchers.delete(key);
          published.delete(key);
        }
      };
    },

    watching: () => watchers.size,

    async close() {
      closed = true;
      watchers.clear();
      await running;
    },
  };
}

export type LiveCounters = ReturnType<typeof createLiveCounters>;
