import { randomUUID } from 'node:crypto';
import type { KesherEvent } from '@kesher/contracts';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from '../event-store/event-store.port.js';
import { aggregateStream } from './aggregate-stream.js';
import { newEvents } from './new-events.js';
import type { CommandContext } from './command-handler.js';
import type { Decider } from './decider.js';

/** One step of a sequence: the command to decide on the state so far (undefined: skip it). */
export interface SequenceStep<State, Command> {
  command: (state: State) => Command | undefined;
  /** A refusal this step may meet without spoiling the others (e.g. a run already under way): its events are left out. */
  tolerate?: (error: unknown) => boolean;
}

/**
 * Several commands on one aggregate decided one after the other on the state each leaves, and appended
 * together with one expected revision — one read and one write instead of one of each per command, for a
 * worker whose every message is the same short sequence (a channel's message: start the conversation if
 * needed, post the message, ask for an answer). A concurrent writer makes the append fail; the whole
 * sequence is then decided again on the new state, a bounded number of times.
 */
export async function handleSequence<State, Command, Event extends KesherEvent>(
  eventStore: EventStore,
  decider: Decider<State, Command, Event>,
  streamId: string,
  steps: readonly SequenceStep<State, Command>[],
  context: CommandContext,
  maxAttempts = 5,
): Promise<{ events: Event[]; state: State; appended?: AppendResult }> {
  const causationId = context.causationId ?? randomUUID();
  for (let attempt = 1; ; attempt++) {
    const { state: loaded, revision } = await aggregateStream(eventStore, decider, streamId);
    let state = loaded;
    const events: Event[] = [];
    for (const step of steps) {
      const command = step.command(state);
      if (command === undefined) continue;
      let decided: Event[];
      try {
        decided = decider.decide(command, state);
      } catch (error) {
        if (step.tolerate?.(error)) continue;
        throw error;
      }
      events.push(...decided);
      state = decided.reduce(decider.evolve, state);
    }
    if (events.length === 0) return { events, state };
    try {
      const appended = await eventStore.appendToStream(streamId, newEvents(events, context, causationId), { expectedRevision: revision });
      return { events, state, appended };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
    }
  }
}
