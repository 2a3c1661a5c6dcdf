import type { ErrorCode, KesherEvent } from '@kesher/contracts';

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

/**
 * What a refusal is, in the domain's words; the API facade (errors.plugin.ts) maps each to its status:
 * not_found 404, conflict 409, forbidden 403, invalid 422, bad_request 400, too_many 429.
 */
export type DomainErrorKind = 'not_found' | 'conflict' | 'forbidden' | 'invalid' | 'bad_request' | 'too_many';

/** Beside a refusal's text: the catalogue code that names it, and when the caller may try again. */
export interface DomainErrorOptions {
  /**
   * The text's stable code (contracts http/error-codes.ts), for a text whose words alone do not name it (a
   * catalogue text with a reason after it). A catalogue text is named by its words without it.
   */
  code?: ErrorCode;
  /** The values a parametrised text shows, as it shows them. */
  args?: readonly string[];
  /** A refusal that lifts with time (a rate limit): when to come back, sent as retry-after. */
  retryAfterSeconds?: number;
}

/**
 * A broken business rule, or a refusal by a use case: thrown by deciders and services, never the HTTP
 * error class (HTTP belongs to api/). The facade maps `kind` to a status and sends `message` as the
 * detail with its code.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
