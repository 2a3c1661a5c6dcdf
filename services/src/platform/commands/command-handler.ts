import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor, KesherEvent } from '@kesher/contracts';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from '../event-store/event-store.port.js';
import { aggregateStream, type Fold } from './aggregate-stream.js';
import { newEvents } from './new-events.js';
import type { Decider } from './decider.js';

export interface CommandContext {
  actor: Actor;
  /** Carried to every event so a request can be traced through all workers it triggers. */
  correlationId: string;
  /** The command's (or triggering event's) id; defaults to a fresh id for this command. */
  causationId?: string;
  now: Date;
}

/** An aggregate as it stands after a given revision (`no_stream`: it has no event yet). */
export interface Loaded<State> {
  state: State;
  revision: bigint | 'no_stream';
}

/** A decision taken on the state itself: the events to append (none: nothing to append). May wait (a count read elsewhere). */
export type DecideFn<State, Event extends KesherEvent> = (state: State) => readonly Event[] | Promise<readonly Event[]>;

/** One command of a sequence, or a command chosen on the state so far (undefined: skip it). */
export type Step<State, Command> = Command | ((state: State) => Command | undefined);

export interface HandleOptions<State, Command = unknown> {
  /**
   * The aggregate the caller already holds (just loaded, or kept from its last handle): the first attempt
   * decides on it and appends after its revision without reading the stream. A conflict reads it afresh.
   */
  from?: Loaded<State>;
  /**
   * `no_stream`: the stream must not exist yet (a delivery named by its channel id, a reply claimed before
   * it is sent). Decided on the initial state with no read; a stream already there is not an error and
   * is not retried: nothing is appended and the result says `existed`.
   */
  expected?: 'no_stream';
  /** Decisions tried in all (first + retries on a conflict); default 5. The last conflict is thrown. */
  maxAttempts?: number;
  /**
   * A refusal that may be met without spoiling the rest: that command's events are left out (in a row of
   * commands, the others still go). `command` is the one refused (undefined for a decide function).
   */
  tolerate?: (error: unknown, command: Command | undefined) => boolean;
  /** Other errors that mean "decided on a stale view: read again and decide again" (counted as attempts, like a conflict). */
  retryOn?: (error: unknown) => boolean;
}

export interface HandledCommand<State, Event extends KesherEvent = KesherEvent> {
  /** The events appended (none when the decision was a no-op, or the stream `existed`). */
  events: Event[];
  /** The state after them. */
  state: State;
  /** The stream's revision after them: keep it with `state` and pass both as `from` to write again without a read. */
  revision: bigint | 'no_stream';
  /** Undefined when nothing was appended. */
  appended?: AppendResult;
  /** Only with `expected: 'no_stream'`: the stream was there already, nothing was appended (state is the initial one, not the stream's). */
  existed?: true;
}

/** The decision of one handle: one command, commands decided in a row, or a function of the state. */
export type Decision<State, Command, Event extends KesherEvent> =
  DecideFn<State, Event> | Command | readonly Step<State, Command>[];

/**
 * A stream of facts with no state to decide on — a delivery, a claim, a webhook seen — for records
 * appended with `expected: 'no_stream'`: `handleCommand(store, factStream, id, () => [event], context, { expected: 'no_stream' })`.
 */
export const factStream: Fold<null, KesherEvent> = { eventTypes: [], initialState: () => null, evolve: () => null };

const DEFAULT_ATTEMPTS = 5;
/** Longest pause before a retry: writers that collided draw apart rather than collide again at once. */
const MAX_JITTER_MS = 50;

/** Before attempt n (n ≥ 2): random up to 2^(n-1) ms, capped, so a crowd on one stream spreads out; the first retry is nearly immediate. */
const jitter = (attempt: number) => sleep(Math.random() * Math.min(MAX_JITTER_MS, 2 ** (attempt - 1)));

function decideOnce<State, Command, Event extends KesherEvent>(
  fold: Fold<State, Event> & { decide?: Decider<State, Command, Event>['decide'] },
  decision: Decision<State, Command, Event>,
  state: State,
  tolerate: HandleOptions<State, Command>['tolerate'],
): Promise<readonly Event[]> | readonly Event[] {
  const refusedOk = <T>(run: () => T, otherwise: T, command?: Command): T => {
    try {
      return run();
    } catch (error) {
      if (tolerate?.(error, command)) return otherwise;
      throw error;
    }
  };
  if (typeof decision === 'function') {
    const decided = refusedOk(() => (decision as DecideFn<State, Event>)(state), [] as readonly Event[]);
    if (!tolerate || !(decided instanceof Promise)) return decided;
    return decided.catch((error: unknown) => {
      if (tolerate(error, undefined)) return [];
      throw error;
    });
  }
  if (!fold.decide) throw new Error('a command needs a decider (a fold alone takes a decide function)');
  // Called on the decider itself: a decider written as a class may use `this`.
  const decide = (command: Command, on: State) => fold.decide!(command, on);
  const steps: readonly Step<State, Command>[] = Array.isArray(decision) ? decision : [decision as Command];
  const events: Event[] = [];
  let current = state;
  for (const step of steps) {
    const command = typeof step === 'function' ? (step as (state: State) => Command | undefined)(current) : step;
    if (command === undefined) continue;
    const decided = refusedOk(() => decide(command, current), [], command);
    events.push(...decided);
    current = decided.reduce(fold.evolve, current);
  }
  return events;
}

/**
 * The one way a command runs (Emmett's CommandHandler): read the stream and fold it (or take the state
 * the caller holds), decide, append with the revision the decision was taken on. Another writer in
 * between makes the append fail with a version conflict; the stream is then read again and the decision
 * taken again on the new state — after a short random pause, a bounded number of times — so every
 * decision is appended right after the state it was taken on.
 *
 * The decision is a command of the decider, several commands decided one after the other on the state
 * each leaves and appended together (one read, one write), or a function of the state (which may await
 * something it must read afresh at every attempt). A fold without `decide` takes only a function.
 */
export function handleCommand<State, Command, Event extends KesherEvent>(
  eventStore: EventStore,
  decider: Decider<State, Command, Event>,
  streamId: string,
  decision: NoInfer<Decision<State, Command, Event>>,
  context: CommandContext,
  options?: HandleOptions<NoInfer<State>, NoInfer<Command>>,
): Promise<HandledCommand<State, Event>>;
export function handleCommand<State, Event extends KesherEvent>(
  eventStore: EventStore,
  fold: Fold<State, Event>,
  streamId: string,
  decision: NoInfer<DecideFn<State, Event>>,
  context: CommandContext,
  options?: HandleOptions<NoInfer<State>, unknown>,
): Promise<HandledCommand<State, Event>>;
export async function handleCommand<State, Command, Event extends KesherEvent>(
  eventStore: EventStore,
  decider: Decider<State, Command, Event> | Fold<State, Event>,
  streamId: string,
  decision: Decision<State, Command, Event>,
  context: CommandContext,
  options: HandleOptions<State, Command> = {},
): Promise<HandledCommand<State, Event>> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  // Every attempt appends the same decision: it names the same cause.
  const causationId = context.causationId ?? randomUUID();
  let from: Loaded<State> | undefined =
    options.expected === 'no_stream' ? { state: decider.initialState(), revision: 'no_stream' } : options.from;
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) await jitter(attempt);
    const { state, revision } = from ?? (await aggregateStream(eventStore, decider, streamId));
    from = undefined;
    try {
      const events = [...(await decideOnce(decider, decision, state, options.tolerate))];
      if (events.length === 0) return { events, state, revision };
      const appended = await eventStore.appendToStream(streamId, newEvents(events, context, causationId), {
        expectedRevision: revision,
      });
      return { events, state: events.reduce(decider.evolve, state), revision: appended.nextExpectedRevision, appended };
    } catch (error) {
      if (options.expected === 'no_stream' && error instanceof WrongExpectedVersionError) {
        return {
          events: [],
          state,
          revision: typeof error.actual === 'bigint' ? error.actual : 'no_stream',
          existed: true,
        };
      }
      const stale = error instanceof WrongExpectedVersionError || options.retryOn?.(error) === true;
      if (!stale || attempt >= maxAttempts) throw error;
    }
  }
}

/**
 * The handler bound to a store, as the composition root hands it to routes and services:
 * `handle(decider, streamId, command, context, options?)`.
 */
export function createCommandHandler(deps: { eventStore: EventStore; maxAttempts?: number }) {
  return function handle<State, Command, Event extends KesherEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    decision: NoInfer<Decision<State, Command, Event>>,
    context: CommandContext,
    options: HandleOptions<NoInfer<State>, NoInfer<Command>> = {},
  ): Promise<HandledCommand<State, Event>> {
    return handleCommand(deps.eventStore, decider, streamId, decision, context, {
      maxAttempts: deps.maxAttempts,
      ...options,
    });
  };
}

export type CommandHandler = ReturnType<typeof createCommandHandler>;
