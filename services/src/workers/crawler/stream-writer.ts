import { randomUUID } from 'node:crypto';
import type { KesherEvent } from '@kesher/contracts';
import { aggregateStream } from '../../platform/commands/aggregate-stream.js';
import type { CommandContext } from '../../platform/commands/command-handler.js';
import type { Decider } from '../../platform/commands/decider.js';
import { WrongExpectedVersionError, type EventStore } from '../../platform/event-store/event-store.port.js';

/**
 * A command handler for one stream that a worker writes many times in a row (a crawl records hundreds of
 * batches on its own stream): the aggregate is loaded once and kept, each decision is appended with the
 * revision it was taken on, and only a conflict (another writer: a second worker handed the same crawl
 * after a rebalance) reloads it. The platform's handler reads the whole stream for every command, which
 * for a crawl of thousands of events would make recording it quadratic.
 */
export function createStreamWriter<State, Command, Event extends KesherEvent>(deps: { eventStore: EventStore; decider: Decider<State, Command, Event>; streamId: string; maxAttempts?: number }) {
  let state: State | undefined;
  let revision: bigint | 'no_stream' = 'no_stream';

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
    /** Decides on the kept state and appends; the events recorded (none when the decision was a no-op). */
    async decide(command: Command, context: CommandContext): Promise<Event[]> {
      for (let attempt = 1; ; attempt++) {
        const current = state ?? (await load());
        const events = deps.decider.decide(command, current);
        if (events.length === 0) return events;
        try {
          const appended = await deps.eventStore.appendToStream(
            deps.streamId,
            events.map((event) => ({
              type: event.type,
              data: event.data,
              metadata: {
                eventId: randomUUID(),
                correlationId: context.correlationId,
                causationId: context.causationId ?? randomUUID(),
                actor: context.actor,
                timestamp: context.now.toISOString(),
                schemaVersion: 1,
              },
            })),
            { expectedRevision: revision },
          );
          state = events.reduce(deps.decider.evolve, current);
          revision = appended.nextExpectedRevision;
          return events;
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError) || attempt >= (deps.maxAttempts ?? 5)) throw error;
          state = undefined;
        }
      }
    },
  };
}
