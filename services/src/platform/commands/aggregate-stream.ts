import type { KesherEvent, RecordedEvent } from '@kesher/contracts';
import type { EventStore } from '../event-store/event-store.port.js';
import type { Decider, EventOf } from './decider.js';

/** A stored event as one of an aggregate's events: narrowing on `type` types `data`, and the envelope stays. */
export type Recorded<Event extends KesherEvent> = Event & Omit<RecordedEvent, 'type' | 'data'>;

/** What folding a stream needs of a decider (any decider of these events, whatever its commands). */
export type Fold<State, Event extends KesherEvent> = Pick<
  Decider<State, never, Event>,
  'eventTypes' | 'initialState' | 'evolve'
>;

/**
 * A stored event as one of an aggregate's events, or undefined. This is the one place stored data is
 * taken as its type's shape: the schema-checked store validated it against that type's schema when it
 * was appended and upcasts it to the current version on read, so the narrowing rests on those checks
 * rather than on a cast at every reader.
 */
function narrow<Event extends KesherEvent>(
  types: readonly string[],
  event: RecordedEvent,
): Recorded<Event> | undefined {
  return types.includes(event.type) ? (event as unknown as Recorded<Event>) : undefined;
}

/** A stored or relayed event as one of `types` (typed data), or undefined: `eventOf(['RunRequested'], event)?.data`. */
export const eventOf = <Type extends KesherEvent['type']>(
  types: readonly Type[],
  event: RecordedEvent,
): Recorded<EventOf<Type>> | undefined => narrow<EventOf<Type>>(types, event);

export interface AggregateStream<State, Event extends KesherEvent> {
  state: State;
  /** The revision to append after: the stream's last event (of any type), or `no_stream` when it has none. */
  revision: bigint | 'no_stream';
  /** The stream's events this aggregate knows, in order and typed. */
  events: readonly Recorded<Event>[];
}

/**
 * Loads an aggregate: reads its stream and folds the events its decider knows with `evolve`. The one
 * loader for the command handler and for every worker that needs an aggregate's state (the ingest
 * worker's "still pending?", the ai-runner's thread, the plan's slot holders).
 */
export async function aggregateStream<State, Event extends KesherEvent>(
  eventStore: EventStore,
  decider: Fold<State, Event>,
  streamId: string,
): Promise<AggregateStream<State, Event>> {
  return foldStream(decider, await eventStore.readStream(streamId));
}

/** Folds a stream already read (a worker that needs its other events too reads it once, for both). */
export function foldStream<State, Event extends KesherEvent>(
  decider: Fold<State, Event>,
  stored: readonly RecordedEvent[],
): AggregateStream<State, Event> {
  const events = stored.flatMap((event) => narrow<Event>(decider.eventTypes, event) ?? []);
  const last = stored[stored.length - 1];
  return {
    state: events.reduce(decider.evolve, decider.initialState()),
    revision: last ? last.streamPosition : 'no_stream',
    events,
  };
}
