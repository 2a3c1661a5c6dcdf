/**
 * An aggregate as three pure functions (Emmett's decider). `decide` gets the time and the actor through
 * the command itself, never from a clock, so it is deterministic and testable as given–when–then.
 */
export interface Decider<State, Command, Event> {
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
