import type { RecordedEvent } from '@kesher/contracts';
import type { AllBatch, AllFilter, ReadAllOptions } from './event-store.port.js';

interface Waiting {
  options: ReadAllOptions;
  resolve: (batch: AllBatch) => void;
  reject: (error: unknown) => void;
}

const DEFAULT_MAX_COUNT = 1000;

const positionKey = (options: ReadAllOptions) =>
  options.after ? `${options.after.commit}:${options.after.prepare}` : 'start';

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

/** One reader's share of a page read for several: its own events, and how far the page lets it move. */
function shareOf(page: AllBatch, options: ReadAllOptions): AllBatch {
  const limit = options.maxCount ?? DEFAULT_MAX_COUNT;
  const events = page.events.filter((event) => matches(event, options.filter));
  if (events.length > limit) {
    const taken = events.slice(0, limit);
    return { events: taken, next: taken[taken.length - 1]!.position, atEnd: false };
  }
  // Every event this reader wants between its position and page.next is in the page (the page's filter
  // is the union of the readers'), so it may move as far as the page did.
  return { events, next: page.next, atEnd: page.atEnd };
}

/**
 * Subscriptions of one process are woken by the same append and then each read the log from where they
 * stand, which after a quiet moment is the same place for all of them: a dozen identical reads (and a
 * dozen computations of the read horizon) per append. Reads asked for in the same turn of the event loop
 * from the same position go to the database once, with the union of their filters, and each gets its own
 * events from the page. A lone read (catch-up, a rebuild) goes as asked, with its filter in SQL.
 */
export function coalescedReadAll(readAll: (options: ReadAllOptions) => Promise<AllBatch>) {
  let gathering: Map<string, Waiting[]> | undefined;

  function flush(groups: Map<string, Waiting[]>) {
    for (const waiting of groups.values()) {
      if (waiting.length === 1) {
        const [only] = waiting;
        readAll(only!.options).then(only!.resolve, only!.reject);
        continue;
      }
      const options: ReadAllOptions = {
        after: waiting[0]!.options.after,
        maxCount: Math.max(...waiting.map((w) => w.options.maxCount ?? DEFAULT_MAX_COUNT)),
        filter: unionOf(waiting.map((w) => w.options.filter)),
      };
      readAll(options).then(
        (page) => waiting.forEach((w) => w.resolve(shareOf(page, w.options))),
        (error: unknown) => waiting.forEach((w) => w.reject(error)),
      );
    }
  }

  return (options: ReadAllOptions): Promise<AllBatch> =>
    new Promise<AllBatch>((resolve, reject) => {
      if (!gathering) {
        const groups = new Map<string, Waiting[]>();
        gathering = groups;
        // After the microtasks of this turn: every subscription woken by one append asks by then.
        setImmediate(() => {
          gathering = undefined;
          flush(groups);
        });
      }
      const key = positionKey(options);
      const group = gathering.get(key);
      if (group) group.push({ options, resolve, reject });
      else gathering.set(key, [{ options, resolve, reject }]);
    });
}
