import { comparePositions, type AllPosition } from '@kesher/contracts';
import { alignedDelay } from '../process/clock-grid.js';
import type { AllBatch, ReadAllOptions, SubscribeOptions, Subscription } from './event-store.port.js';

/** After an append we know of is not visible yet (an older transaction still holds the horizon), retry soon. */
const SHORT_RETRIES_MS = [1, 2, 4, 8, 16, 32, 64];
/** With no notification at all, look again anyway: LISTEN may be unavailable or a wake-up lost. */
const IDLE_POLL_MS = 250;
/**
 * The same, while the store hears every append (its own directly, other processes' by LISTEN): the poll
 * is then only a safety net for a lost notification, and a quiet process stops asking the database
 * sixty-odd times a second (one poll per read model, four times a second).
 */
export const IDLE_POLL_LISTENING_MS = 2000;

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
/**
 * Waits `ms`, or not at all when `skip`; `expose` is handed the function that ends the wait early, and
 * undefined once the wait is over.
 */
function endableWait(ms: number, skip: boolean, expose: (end: (() => void) | undefined) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    if (skip) return resolve();
    const timer = setTimeout(end, ms);
    function end() {
      clearTimeout(timer);
      expose(undefined);
      resolve();
    }
    expose(end);
  });
}

export function pollingSubscription(deps: {
  readAll: (options: ReadAllOptions) => Promise<AllBatch>;
  options: SubscribeOptions;
  localWaiters: LocalWaiters;
  /** How long to sleep with nothing awaited (undefined: IDLE_POLL_MS); asked each time, as LISTEN comes later. */
  idlePollMs?: () => number | undefined;
}): Subscription {
  const { readAll, options, localWaiters } = deps;
  const idlePollMs = () => deps.idlePollMs?.() ?? IDLE_POLL_MS;
  const batchDelayMs = options.batchDelayMs ?? 0;
  let running = true;
  let wake: (() => void) | undefined;
  let pendingWake = false;
  /** Somebody waits for this reader: no batching delay until the next read. */
  let hurried = false;
  let endDelay: (() => void) | undefined;
  /** The newest append we were told of and have not read past yet; 'somewhere' when we were not told where. */
  let awaited: AllPosition | 'somewhere' | undefined;
  // A subscription to some event types sleeps through appends of other types (it reads past them on its
  // idle poll): read-your-writes waits only for the read models that take what was written.
  const wanted =
    options.filter?.eventTypes && !options.filter.categories ? new Set(options.filter.eventTypes) : undefined;
  const onWake = (newest?: AllPosition, types?: ReadonlySet<string>) => {
    if (wanted && types && ![...types].some((type) => wanted.has(type))) return;
    pendingWake = true;
    if (newest === undefined || awaited === 'somewhere') awaited = 'somewhere';
    else if (awaited === undefined || comparePositions(newest, awaited) > 0) awaited = newest;
    wake?.();
  };
  localWaiters.add(onWake);

  const sleep = (ms: number) => endableWait(ms, pendingWake || !running, (end) => (wake = end));
  /** The batching delay: ended early by hurry() or stop(), not by further appends (those join the batch). */
  const delay = () => endableWait(batchDelayMs, hurried || !running, (end) => (endDelay = end));

  const stopped = (async () => {
    let after = options.after;
    let shortRetry = 0;
    /** Whether the next read follows a wake-up (an append), the only reads the batching delay applies to. */
    let woken = false;
    try {
      while (running) {
        if (woken && batchDelayMs > 0) await delay();
        woken = false;
        hurried = false;
        pendingWake = false;
        const batch = await readAll({ after, maxCount: options.maxCount, filter: options.filter });
        const moved = after === undefined || batch.next.commit !== after.commit || batch.next.prepare !== after.prepare;
        if (batch.events.length > 0 || moved) {
          await options.onBatch(batch);
          after = batch.next;
        }
        if (!batch.atEnd) continue;
        if (
          awaited !== undefined &&
          awaited !== 'somewhere' &&
          after !== undefined &&
          comparePositions(after, awaited) >= 0
        )
          awaited = undefined;
        if (pendingWake) {
          shortRetry = 0;
          woken = true;
          continue;
        }
        if (moved && awaited === 'somewhere') shortRetry = 0;
        if (awaited === 'somewhere' && shortRetry >= SHORT_RETRIES_MS.length) awaited = undefined;
        if (awaited === undefined) {
          // Nothing we know of is missing: sleep until woken. The idle polls of a process's subscriptions
          // fall on the same grid of the clock, so they meet in one read (coalesced-read.ts).
          shortRetry = 0;
          await sleep(alignedDelay(idlePollMs()));
          woken = pendingWake;
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
      endDelay?.();
      await stopped;
    },
    hurry(until) {
      hurried = true;
      endDelay?.();
      // Read (again) at once, and until past `until`: the waiter may know of an append this reader was not
      // told of, or one its read under way started too early to see.
      onWake(until);
      pendingWake = true;
      wake?.();
    },
  };
}
