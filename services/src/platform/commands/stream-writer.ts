import type { AllPosition, KesherEvent } from '@kesher/contracts';
import type { EventStore } from '../event-store/event-store.port.js';
import { aggregateStream } from './aggregate-stream.js';
import { handleCommand, type CommandContext, type Loaded } from './command-handler.js';
import type { Decider } from './decider.js';

/**
 * A stream a worker writes several times in a row, its state kept between writes: each decision is
 * appended with the revision it was taken on, and only a conflict reads the stream again. A thin keeper of
 * `handleCommand`'s `from`; kept for callers not yet on the handler itself.
 */
export function createStreamWriter<State, Command, Event extends KesherEvent>(deps: {
  eventStore: EventStore;
  decider: Decider<State, Command, Event>;
  streamId: string;
  maxAttempts?: number;
  from?: Loaded<State>;
}) {
  let kept: Loaded<State> | undefined = deps.from;
  let position: AllPosition | undefined;

  async function load(): Promise<State> {
    const loaded = await aggregateStream(deps.eventStore, deps.decider, deps.streamId);
    kept = { state: loaded.state, revision: loaded.revision };
    return loaded.state;
  }

  return {
    load,
    get state(): State {
      if (kept === undefined) throw new Error(`${deps.streamId} was not loaded`);
      return kept.state;
    },
    /** Where this writer's last append landed in the log (undefined before its first). */
    get position(): AllPosition | undefined {
      return position;
    },
    /** Decides on the kept state and appends; the events recorded (none when the decision was a no-op). */
    async decide(command: Command, context: CommandContext): Promise<Event[]> {
      const from = kept;
      // A failure leaves the kept state unknown: the next decision reads the stream.
      kept = undefined;
      const handled = await handleCommand(deps.eventStore, deps.decider, deps.streamId, command, context, { from, maxAttempts: deps.maxAttempts });
      kept = { state: handled.state, revision: handled.revision };
      if (handled.appended) position = handled.appended.position;
      return handled.events;
    },
  };
}
