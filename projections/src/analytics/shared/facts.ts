import type { EventData, EventType, RecordedEvent } from '@kesher/contracts';

/** A recorded event of one known type, its data typed. */
export interface Fact<Type extends EventType> {
  event: RecordedEvent;
  data: EventData<Type>;
  /** The calendar day (UTC) the fact happened on: the command's time, not the time it is projected. */
  day: string;
}

/**
 * The batch's events of the given types, in log order, typed. The projector reads only a projection's own
 * event types and the store validated each against its schema when it was appended (and upcasts on
 * read), so the narrowing rests on those checks; it is done here once rather than at every use.
 */
export function factsOf<Type extends EventType>(events: readonly RecordedEvent[], ...types: Type[]): TypedFact<Type>[] {
  const wanted: readonly string[] = types;
  // A plain loop: a rebuild calls this for every read model over every batch of a million-event log.
  const facts: TypedFact<Type>[] = [];
  for (const event of events)
    if (wanted.includes(event.type))
      facts.push({
        event,
        type: event.type,
        data: event.data,
        day: dayOf(event.metadata.timestamp),
      } as TypedFact<Type>);
  return facts;
}

/** One of several types, discriminated on `type`. */
export type TypedFact<Type extends EventType> = { [T in Type]: Fact<T> & { type: T } }[Type];

/** `YYYY-MM-DD` of an ISO instant, in UTC (event timestamps are stored in UTC). */
export const dayOf = (timestamp: string) =>
  timestamp.endsWith('Z') ? timestamp.slice(0, 10) : new Date(timestamp).toISOString().slice(0, 10);
