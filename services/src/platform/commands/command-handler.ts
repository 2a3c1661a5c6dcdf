import { randomUUID } from 'node:crypto';
import type { Actor, KesherEvent } from '@kesher/contracts';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from '../event-store/event-store.port.js';
import { aggregateStream } from './aggregate-stream.js';
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

export interface HandledCommand<State, Event extends KesherEvent = KesherEvent> {
  events: Event[];
  state: State;
  /** Undefined when the decision produced no events (nothing to append). */
  appended?: AppendResult;
}

/**
 * load → evolve → decide → append with the expected revision. A concurrent writer makes the append
 * fail with a version conflict; we then reload and decide again, a bounded number of times, so the
 * decision is always taken on the state it is appended after.
 */
export function createCommandHandler(deps: { eventStore: EventStore; maxAttempts?: number }) {
  const maxAttempts = deps.maxAttempts ?? 5;

  return async function handle<State, Command, Event extends KesherEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    context: CommandContext,
  ): Promise<HandledCommand<State, Event>> {
    const causationId = context.causationId ?? randomUUID();
    for (let attempt = 1; ; attempt++) {
      const { state, revision: expectedRevision } = await aggregateStream(deps.eventStore, decider, streamId);
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state };
      try {
        const appended = await deps.eventStore.appendToStream(streamId, newEvents(events, context, causationId), { expectedRevision });
        return { events, state: events.reduce(decider.evolve, state), appended };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
      }
    }
  };
}

export type CommandHandler = ReturnType<typeof createCommandHandler>;
