import type { AllPosition, KesherEvent } from '@kesher/contracts';
import { WrongExpectedVersionError, type EventStore } from '../event-store/event-store.port.js';
import { aggregateStream } from './aggregate-stream.js';
import { newEvents } from './new-events.js';
import type { CommandContext } from './command-handler.js';
import type { Decider } from './decider.js';

/**
 * A command handler for one stream that a worker writes several times in a row (a crawl records hundreds
 * of batches on its own stream; the ai-runner records a run's start and its outcome): the aggregate is
 * loaded once and kept, each decision is appended with the revision it was taken on, and only a conflict
 * (another writer: a second worker handed the same crawl after a rebalance, a visitor's next message)
 * reloads it. The platform's handler reads the whole stream for every command, which for a crawl of
 * thousands of events would make recording it quadratic, and for a chat turn costs a read per decision.
 *
 * `from`: an aggregate the caller has just loaded (the ai-runner reads the thread's events for its own use
 * anyway), so the first decision does not read the stream again.
 */
export function createStreamWriter<State, Command, Event extends KesherEvent>(deps: {
  eventStore: EventStore;
  decider: Decider<State, Command, Event>;
  streamId: string;
  maxAttempts?: number;
  from?: { state: State; revision: bigint | 'no_stream' };
}) {
  let state: State | undefined = deps.from?.state;
  let revision: bigint | 'no_stream' = deps.from?.revision ?? 'no_stream';
  let position: AllPosition | undefined;

  async function load(): Promise<State> {
    const loaded = await aggregateStream(deps.eventStore, deps.decider, deps.streamId);
    state = loaded.state;
    revision = loaded.revision;
    return loaded.state;
  }

  return {
    load,
    get state(): State {
      if (state === undefined) throw new Error(`${deps.streamId} was not loaded`);
      return state;
    },
    /** Where this writer's last append landed in the log (undefined before its first). */
    get position(): AllPosition | undefined {
      return position;
    },
    /** Decides on the kept state and appends; the events recorded (none when the decision was a no-op). */
    async decide(command: Command, context: CommandContext): Promise<Event[]> {
      for (let attempt = 1; ; attempt++) {
        const current = state ?? (await load());
        const events = deps.decider.decide(command, current);
        if (events.length === 0) return events;
        try {
          const appended = await deps.eventStore.appendToStream(deps.streamId, newEvents(events, context), { expectedRevision: revision });
          state = events.reduce(deps.decider.evolve, current);
          revision = appended.nextExpectedRevision;
          position = appended.position;
          return events;
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError) || attempt >= (deps.maxAttempts ?? 5)) throw error;
          state = undefined;
        }
      }
    },
  };
}
