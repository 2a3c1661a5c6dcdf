/** Something to run, with what it must stay in order with. */
export interface Schedulable {
  /** Items of one key run one at a time, in the order they were added. */
  key: string;
  /** So do items of one lane (a lane may hold several keys: one owner's files). */
  lane: string;
  /** Runs alone: only once nothing else runs, and nothing starts beside it; later items wait behind it. */
  alone: boolean;
}

/**
 * Runs up to `concurrency` items at once, the earliest runnable first. An item is runnable when no
 * earlier item (running or waiting) shares its key or its lane: so order per key and per lane holds,
 * different lanes share the slots, and a lane with a long queue takes one slot, not all of them.
 */
export function createLaneScheduler<T extends Schedulable>(deps: {
  concurrency: number;
  run: (item: T) => Promise<void>;
}) {
  const concurrency = Math.max(1, Math.floor(deps.concurrency));
  const waiting: T[] = [];
  const running = new Set<T>();
  let idleWaiters: (() => void)[] = [];

  function pump() {
    const busyKeys = new Set<string>();
    const busyLanes = new Set<string>();
    let alone = false;
    for (const item of running) {
      busyKeys.add(item.key);
      busyLanes.add(item.lane);
      alone ||= item.alone;
    }
    if (alone) return;
    for (let i = 0; i < waiting.length && running.size < concurrency;) {
      const item = waiting[i]!;
      const blocked = busyKeys.has(item.key) || busyLanes.has(item.lane);
      if (item.alone) {
        // A barrier: nothing after it starts until it has run on its own.
        if (running.size > 0 || blocked) return;
        waiting.splice(i, 1);
        start(item);
        return;
      }
      // A blocked item holds back whatever comes after it on its key and on its lane.
      busyKeys.add(item.key);
      busyLanes.add(item.lane);
      if (blocked) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      start(item);
    }
  }

  function start(item: T) {
    running.add(item);
    void deps
      .run(item)
      .catch(() => {})
      .finally(() => {
        running.delete(item);
        pump();
        if (running.size === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          waiters.forEach((resolve) => resolve());
        }
      });
  }

  return {
    add(items: readonly T[]) {
      waiting.push(...items);
      pump();
    },
    /** Forgets waiting items (running ones go on). */
    drop(which: (item: T) => boolean) {
      for (let i = waiting.length - 1; i >= 0; i--) if (which(waiting[i]!)) waiting.splice(i, 1);
      pump();
    },
    get waiting() {
      return waiting.length;
    },
    get running() {
      return running.size;
    },
    /** Resolves once nothing runs. */
    idle(): Promise<void> {
      if (running.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
