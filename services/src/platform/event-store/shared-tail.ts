import { comparePositions, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import type { AllBatch, AllFilter, ReadAllOptions } from './event-store.port.js';

/** Events kept for the live readers (they lag by a handful); one further behind reads the table itself. */
const DEFAULT_CAPACITY = 1_000;
/** Events one refresh reads at most; more than that means a burst the readers catch up with directly. */
const REFRESH_PAGE = 1_000;

const after = (a: AllPosition, b: AllPosition) => comparePositions(a, b) > 0;

/** The same test the SQL filter makes: one of the types, or a stream of one of the categories. */
function matches(event: RecordedEvent, filter: AllFilter | undefined): boolean {
  if (!filter?.eventTypes && !filter?.categories) return true;
  if (filter.eventTypes?.includes(event.type)) return true;
  return filter.categories?.includes(event.streamId.split('-')[0]!) ?? false;
}

/**
 * The newest stretch of the log, read once for every live reader of this process. An append wakes a
 * dozen subscriptions (each read model that takes the type, and the relay): each used to read the same
 * new events from the table, and parse them, for itself. Now one read fetches what is new (unfiltered)
 * and each reader takes its types from memory; readers farther behind than the stretch read the table
 * as before.
 *
 * What it holds is complete: every event visible between `from` (exclusive) and `to` (inclusive), `to`
 * being the horizon of its last read (see sql-event-store.ts), so a reader served from it gets exactly
 * what its own read would have returned at that moment. Refreshes run one at a time; a reader joins the
 * one under way unless an append was committed since it began (it would not see that one), in which case
 * the next refresh starts after it.
 */
export function createSharedTail(deps: { readPage: (options: ReadAllOptions) => Promise<AllBatch>; capacity?: number }) {
  const capacity = deps.capacity ?? DEFAULT_CAPACITY;
  let held: { from: AllPosition; to: AllPosition; events: RecordedEvent[] } | undefined;
  /** Counts the appends this process heard of; a refresh that began before the latest is stale. */
  let commits = 0;
  let refreshing: { commits: number; done: Promise<void> } | undefined;

  async function refreshOnce() {
    const base = held;
    if (!base) return;
    const from = base.to;
    const batch = await deps.readPage({ after: from, maxCount: REFRESH_PAGE });
    // Replaced meanwhile (a reader found the end further on and started the stretch there): what was read
    // here would not follow on from it, so it is dropped; the next refresh starts from the new end.
    if (held !== base || base.to !== from) return;
    if (!batch.atEnd) {
      // A burst larger than a page: let the readers catch up on the table, and start again after it.
      held = undefined;
      return;
    }
    base.events.push(...batch.events);
    if (after(batch.next, base.to)) base.to = batch.next;
    if (base.events.length > capacity) {
      const dropped = base.events.splice(0, base.events.length - capacity);
      base.from = dropped[dropped.length - 1]!.position;
    }
  }

  function refresh(): Promise<void> {
    if (refreshing && refreshing.commits === commits) return refreshing.done;
    const previous = refreshing?.done;
    const current = { commits, done: (async () => (await previous?.catch(() => {}), refreshOnce()))() };
    refreshing = current;
    void current.done.finally(() => {
      if (refreshing === current) refreshing = undefined;
    }).catch(() => {});
    return current.done;
  }

  /** Serves a reader from what is held, or undefined when it is outside (the caller reads the table). */
  function serve(options: ReadAllOptions): AllBatch | undefined {
    const from = options.after;
    if (!held || !from || after(held.from, from) || after(from, held.to)) return undefined;
    const limit = options.maxCount ?? 1000;
    const events: RecordedEvent[] = [];
    for (const event of held.events) {
      if (!after(event.position, from) || !matches(event, options.filter)) continue;
      events.push(event);
      if (events.length >= limit) return { events, next: event.position, atEnd: false };
    }
    return { events, next: held.to, atEnd: true };
  }

  return {
    /** An append was committed (ours, or another process's we were told of). */
    noteCommit() {
      commits++;
    },
    /** A live reader's read: from the shared stretch when it is within it, from the table otherwise. */
    async read(options: ReadAllOptions): Promise<AllBatch> {
      if (held && options.after && !after(held.from, options.after) && !after(options.after, held.to)) {
        await refresh();
        const served = serve(options);
        if (served) return served;
      }
      const batch = await deps.readPage(options);
      // A reader that reached the end knows the horizon: the stretch starts there when it has nothing newer.
      if (batch.atEnd && (!held || after(batch.next, held.to))) held = { from: batch.next, to: batch.next, events: [] };
      return batch;
    },
  };
}
