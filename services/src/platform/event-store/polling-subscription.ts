import type { AllBatch, ReadAllOptions, SubscribeOptions, Subscription } from './event-store.port.js';

/** After a wake-up finds nothing visible yet (an older transaction still holds the horizon), retry soon. */
const SHORT_RETRIES_MS = [1, 2, 4, 8, 16, 32, 64];
/** With no notification at all, look again anyway: LISTEN may be unavailable or a wake-up lost. */
const IDLE_POLL_MS = 250;

/**
 * Catch-up then live over a store that can only be read page by page: read until the end, hand each
 * page to the handler, then sleep until an append wakes us (or the idle poll fires).
 */
export function pollingSubscription(deps: {
  readAll: (options: ReadAllOptions) => Promise<AllBatch>;
  options: SubscribeOptions;
  localWaiters: Set<() => void>;
}): Subscription {
  const { readAll, options, localWaiters } = deps;
  let running = true;
  let wake: (() => void) | undefined;
  let pendingWake = false;
  const onWake = () => {
    pendingWake = true;
    wake?.();
  };
  localWaiters.add(onWake);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const stopped = (async () => {
    let after = options.after;
    let shortRetry = SHORT_RETRIES_MS.length;
    try {
      while (running) {
        pendingWake = false;
        const batch = await readAll({ after, maxCount: options.maxCount, filter: options.filter });
        const moved = after === undefined || batch.next.commit !== after.commit || batch.next.prepare !== after.prepare;
        if (batch.events.length > 0 || moved) {
          await options.onBatch(batch);
          after = batch.next;
        }
        if (!batch.atEnd) continue;
        if (moved) shortRetry = 0;
        if (pendingWake) {
          shortRetry = 0;
          continue;
        }
        const delay = shortRetry < SHORT_RETRIES_MS.length ? SHORT_RETRIES_MS[shortRetry++]! : IDLE_POLL_MS;
        await sleep(delay);
      }
    } catch (error) {
      running = false;
      options.onError?.(error);
    } finally {
      localWaiters.delete(onWake);
    }
  })();

  return {
    stopped,
    async stop() {
      running = false;
      wake?.();
      await stopped;
    },
  };
}
