import type { KesherEvent } from '@kesher/contracts';
import type { EventStore } from '../event-store/event-store.port.js';
import { handleCommand, type CommandContext, type HandledCommand } from './command-handler.js';
import type { Decider } from './decider.js';

/** One step of a sequence: the command to decide on the state so far (undefined: skip it). */
export interface SequenceStep<State, Command> {
  command: (state: State) => Command | undefined;
  /** A refusal this step may meet without spoiling the others (e.g. a run already under way): its events are left out. */
  tolerate?: (error: unknown) => boolean;
}

/**
 * Several commands on one aggregate decided in a row and appended together. Kept for callers not yet on
 * `handleCommand`, which takes the commands as an array (and `tolerate` for them all) directly.
 */
export async function handleSequence<State, Command, Event extends KesherEvent>(
  eventStore: EventStore,
  decider: Decider<State, Command, Event>,
  streamId: string,
  steps: readonly SequenceStep<State, Command>[],
  context: CommandContext,
  maxAttempts = 5,
): Promise<HandledCommand<State, Event>> {
  // Each step keeps its own tolerance: a function folding the steps' decisions, for the handler to run.
  const decide = (state: State): Event[] => {
    const events: Event[] = [];
    let current = state;
    for (const step of steps) {
      const command = step.command(current);
      if (command === undefined) continue;
      let decided: Event[];
      try {
        decided = decider.decide(command, current);
      } catch (error) {
        if (step.tolerate?.(error)) continue;
        throw error;
      }
      events.push(...decided);
      current = decided.reduce(decider.evolve, current);
    }
    return events;
  };
  return handleCommand(eventStore, decider, streamId, decide, context, { maxAttempts });
}
