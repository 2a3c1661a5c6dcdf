import type { KesherEvent } from '@kesher/contracts';

/** The known events of the given types, `{ type, data }` typed together (an aggregate's own event union). */
export type EventOf<Type extends KesherEvent['type']> = Extract<KesherEvent, { type: Type }>;

/**
 * An aggregate as three pure functions (Emmett's decider), typed on its own events. `decide` gets the time
 * and the actor through the command itself, never from a clock, so it is deterministic and testable as
 * given–when–then. `eventTypes` lists the events its stream holds: the one loader (aggregate-stream.ts)
 * folds exactly those, typed, without a cast at any caller. Derive the event union from that list, so the
 * two cannot drift:
 *
 *   const assistantEventTypes = ['AssistantCreated', 'AssistantUpdated'] as const;
 *   export type AssistantEvent = EventOf<(typeof assistantEventTypes)[number]>;
 */
export interface Decider<State, Command, Event extends KesherEvent = KesherEvent> {
  eventTypes: readonly Event['type'][];
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

/** A broken business rule; the facade maps `kind` to a status and shows `message` as the detail. */
export class DomainError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'forbidden' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
