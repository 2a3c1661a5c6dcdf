import { comparePositions, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import { gatheredEachTurn } from '../process/this-turn.js';
import type { AllBatch, AllFilter, ReadAllOptions } from './event-store.port.js';

interface Waiting {
  options: ReadAllOptions;
  resolve: (batch: AllBatch) => void;
  reject: (error: unknown) => void;
}

const DEFAULT_MAX_COUNT = 1000;

function matches(event: RecordedEvent, filter: AllFilter | undefined): boolean {
  if (!filter || (!filter.eventTypes && !filter.categories)) return true;
  if (filter.eventTypes?.includes(event.type)) return true;
  return filter.categories?.includes(event.streamId.split('-', 1)[0]!) ?? false;
}

/** What every filter lets through (the filters are ORs of types and categories): their union. */
function unionOf(filters: readonly (AllFilter | undefined)[]): AllFilter | undefined {
  if (filters.some((filter) => !filter || (!filter.eventTypes && !filter.categories))) return undefined;
  const eventTypes = new Set(filters.flatMap((filter) => filter!.eventTypes ?? []));
  const categories = new Set(filters.flatMap((filter) => filter!.categories ?? []));
  return {
    ...(eventTypes.size ? { eventTypes: [...eventTypes] } : {}),
    ...(categories.size ? { categories: [...categories] } : {}),
  };
}

const isAfter = (a: AllPosition, b: AllPosition) => comparePositions(a, b) > 0;
const START: AllPosition = { commit: 0n, prepare: 0n };

/**
 * One reader's share of a page read for several from `page`'s start (at or before the reader's own
 * position): its own events after its position, and how far the page lets it move. Undefined when the page
 * ends before the reader's position (a full page for a reader far behind): the reader then reads alone.
 */
function shareOf(page: AllBatch, options: ReadAllOptions): AllBatch | undefined {
  const after = options.after ?? START;
  const limit = options.maxCount ?? DEFAULT_MAX_COUNT;
  if (!page.atEnd && !isAfter(page.next, after)) return undefined;
  const events = page.events.filter((event) => isAfter(event.position, after) && matches(event, options.filter));
  if (events.length > limit) {
    const taken = events.slice(0, limit);
    return { events: taken, next: taken[taken.length - 1]!.position, atEnd: false };
  }
  // Every event this reader wants between its position and page.next is in the page (the page's filter
  // is the union of the readers' and it starts at or before the reader's position), so it may move as far
  // as the page did — never back (a horizon older than the reader's position).
  return { events, next: isAfter(page.next, after) ? page.next : after, atEnd: page.atEnd };
}

/**
 * Subscriptions of one process are woken by the same append and then each read the log from where they
 * stand: a dozen reads (and a dozen computations of the read horizon) per append. Where they stand
 * differs a little (a read model sleeps through appends of types it does not take, and reads past them on
 * its next wake-up or idle poll), so reads asked for in the same turn of the event loop go to the database
 * once, from the earliest of their positions with the union of their filters, and each gets its own
 * events after its own position. A lone read (catch-up, a rebuild) goes as asked, with its filter in SQL.
 */
export function coalescedReadAll(readAll: (options: ReadAllOptions) => Promise<AllBatch>) {
  const readAlone = (only: Waiting) => readAll(only.options).then(only.resolve, only.reject);

  function flush(waiting: Waiting[]) {
    if (waiting.length === 1) return void readAlone(waiting[0]!);
    const earliest = waiting
      .map((w) => w.options.after ?? START)
      .reduce((min, position) => (isAfter(min, position) ? position : min));
    const options: ReadAllOptions = {
      after: earliest,
      maxCount: Math.max(...waiting.map((w) => w.options.maxCount ?? DEFAULT_MAX_COUNT)),
      filter: unionOf(waiting.map((w) => w.options.filter)),
    };
    readAll(options).then(
      (page) =>
        waiting.forEach((w) => {
          const share = shareOf(page, w.options);
          if (share) w.resolve(share);
          else void readAlone(w);
        }),
      (error: unknown) => waiting.forEach((w) => w.reject(error)),
    );
  }

  // After the microtasks of this turn: every subscription woken by one append asks by then.
  const ask = gatheredEachTurn(flush);
  return (options: ReadAllOptions): Promise<AllBatch> =>
    new Promise<AllBatch>((resolve, reject) => ask({ options, resolve, reject }));
}
