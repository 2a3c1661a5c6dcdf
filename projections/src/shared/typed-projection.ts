import type { EventData, EventType, RecordedEvent } from '@kesher/contracts';
import type { Migration, Projection, Queryable } from '@kesher/contracts/ports/projection';

/**
 * Typed projections: a read model names the event types it reads and gets each event with its `type` and
 * `data` typed by the contracts' event registry (contracts/src/events/registry.ts), so no handler casts.
 *
 * Why the narrowing is sound without parsing: the store validates every event against its registry schema
 * when it is appended and upcasts stored shapes on read, and the runner hands a projection only the event
 * types it declared. Narrowing on `type` is then all that is left to do, and it is done here, once, by a
 * type guard — not by a zod parse per event, which a rebuild of a million events cannot afford.
 */

/** A recorded event of one of the types `T`, discriminated on `type`, its `data` the registry's type. */
export type EventOf<T extends EventType> = { [K in T]: RecordedEvent<K, EventData<K>> }[T];

/** True when the event's type is one of `types` (the caller's `T`): narrows it to `EventOf<T>`. */
export function isEventOf<T extends EventType>(
  event: RecordedEvent,
  types: ReadonlySet<string> | readonly T[],
): event is EventOf<T> {
  const wanted: ReadonlySet<string> | readonly string[] = types;
  return 'has' in wanted ? wanted.has(event.type) : wanted.includes(event.type);
}

/** The batch's events of the given types, in log order, typed (`eventsOf(events, 'RunCompleted', 'RunFailed')`). */
export function eventsOf<T extends EventType>(events: readonly RecordedEvent[], ...types: T[]): EventOf<T>[] {
  const out: EventOf<T>[] = [];
  // A plain loop: rebuilds call this for every batch of a million-event log.
  for (const event of events) if (isEventOf(event, types)) out.push(event);
  return out;
}

/** One handler per event type: each receives its own event, typed. */
export type Handlers<T extends EventType> = {
  [K in T]: (db: Queryable, event: RecordedEvent<K, EventData<K>>) => Promise<void>;
};

/** What every read model declares besides how it applies events (see the Projection port). */
export interface ReadModelSchema {
  name: string;
  version: number;
  migrations: readonly Migration[];
  tables: readonly string[];
}

/**
 * A projection applied event by event, in log order, with one handler per event type:
 *
 * ```ts
 * export const accountsProjection = defineProjection({
 *   name: 'accounts', version: 3, tables: ['accounts'], migrations: [...],
 *   on: {
 *     AccountEmailVerified: async (db, event) => { await db.query(..., [event.data.accountId]); },
 *     ...
 *   },
 * });
 * ```
 *
 * The handlers' keys are the projection's `eventTypes`; a misspelt key or a field the event does not
 * have is a compile error. Handlers must not throw on a recorded fact (skip, clamp or default instead).
 */
export function defineProjection<T extends EventType>(spec: ReadModelSchema & { on: Handlers<T> }): Projection {
  const { on, ...schema } = spec;
  const types = new Set<string>(Object.keys(on));
  return {
    ...schema,
    eventTypes: [...types],
    async apply(db, events) {
      for (const event of events) if (isEventOf<T>(event, types)) await dispatch(on, db, event);
    },
  };
}

/** Calls the handler of the event's own type; `K` ties the two together for the compiler. */
function dispatch<T extends EventType, K extends T>(
  on: Handlers<T>,
  db: Queryable,
  event: RecordedEvent<K, EventData<K>>,
): Promise<void> {
  const handler: Handlers<T>[K] = on[event.type];
  return handler(db, event);
}

/**
 * A projection that applies a whole batch at once (one statement per kind of change, sums in memory —
 * what the busy and the analytics read models do), its events typed. Take the ones of a type with
 * `eventsOf(events, 'RunCompleted')`, or switch on `event.type` (each case narrowed).
 */
export function defineBatchProjection<T extends EventType>(
  spec: ReadModelSchema & {
    eventTypes: readonly T[];
    applyBatch(db: Queryable, events: readonly EventOf<T>[]): Promise<void>;
  },
): Projection {
  const { applyBatch, eventTypes, ...schema } = spec;
  const types = new Set<string>(eventTypes);
  return {
    ...schema,
    eventTypes,
    apply(db, events) {
      const own: EventOf<T>[] = [];
      for (const event of events) if (isEventOf<T>(event, types)) own.push(event);
      return applyBatch(db, own);
    },
  };
}
