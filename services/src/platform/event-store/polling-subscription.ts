import { comparePositions, type AllPosition } from '@kesher/contracts';
import type { AllBatch, ReadAllOptions, SubscribeOptions, Subscription } from './event-store.port.js';

/** After an append we know of is not visible yet (an older transaction still holds the horizon), retry soon. */
const SHORT_RETRIES_MS = [1, 2, 4, 8, 16, 32, 64];
/** With no notification at all, look again anyway: LISTEN may be unavailable or a wake-up lost. */
const IDLE_POLL_MS = 250;

/**
 * Wake-ups of the subscriptions of this process: with the newest position an append committed (when
 * known) and the event types it wrote (known for this process's own appends).
 */
export type LocalWaiters = Set<(newest?: AllPosition, types?: ReadonlySet<string>) => void>;

/**
 * Catch-up then live over a store that can only be read page by page: read until the end, hand each
 * page to the handler, then sleep until an append wakes us (or the idle poll fires).
 *
 * An append is not always visible at once: a reader only takes rows below the oldest transaction still
 * running. So a subscription remembers what it was woken for and re-reads shortly (1, 2, 4 … 64 ms) until
 * it has passed it; once it has, it sleeps until the next wake-up instead of polling on. A wake-up that
 * does not say where (another process's append) gets the short retries once.
 */
export function pollingSubscription(deps: { readAll: (options: ReadAllOptions) => Promise<AllBatch>; options: SubscribeOptions; localWaiters: LocalWaiters }): Subscription {
  const { readAll, options, localWaiters } = deps;
  let running = true;
  let wake: (() => void) | undefined;
  let pendingWake = false;
  /** The newest append we were told of and have not read past yet; 'somewhere' when we were not told where. */
  let awaited: AllPosition | 'somewhere' | undefined;
  // A subscription to some event types sleeps through appends of other types (it reads past them on its
  // idle poll): read-your-writes waits only for the read models that take what was written.
  const wanted = options.filter?.eventTypes && !options.filter.categories ? new Set(options.filter.eventTypes) : undefined;
  const onWake = (newest?: AllPosition, types?: ReadonlySet<string>) => {
    if (wanted && types && ![...types].some((type) => wanted.has(type))) return;
    pendingWake = true;
    if (newest === undefined || awaited === 'somewhere') awaited = 'somewhere';
    else if (awaited === undefined || comparePositions(newest, awaited) > 0) awaited = newest;
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
    let shortRetry = 0;
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
        if (awaited !== undefined && awaited !== 'somewhere' && after !== undefined && comparePositions(after, awaited) >= 0) awaited = undefined;
        if (pendingWake) {
          shortRetry = 0;
          continue;
        }
        if (moved && awaited === 'somewhere') shortRetry = 0;
        if (awaited === 'somewhere' && shortRetry >= SHORT_RETRIES_MS.length) awaited = undefined;
        if (awaited === undefined) {
          // Nothing we know of is missing: sleep until woken.
          shortRetry = 0;
          await sleep(IDLE_POLL_MS);
        } else {
          // An append we know of is not visible yet; a long transaction elsewhere may hold it for a while.
          await sleep(SHORT_RETRIES_MS[Math.min(shortRetry++, SHORT_RETRIES_MS.length - 1)]!);
        }
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
