import { streamIds, type RecordedEvent } from '@kesher/contracts';
import type { MessageBus } from '../../platform/bus/message-bus.port.js';
import { fromMessage, topicFor } from '../../platform/bus/relayed-event.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { createCheckpointedSubscription } from '../../platform/projections/checkpointed-subscription.js';
import { createProgressBoard } from '../../platform/projections/progress.js';
import type { Sql } from '../../platform/sql/sql.port.js';

/**
 * Where the AI runner is handed `RunRequested` events from. `handle` resolves once the run is taken on
 * (its answer may still be under way); it is awaited before the next request, which is how a runner with
 * every slot busy holds the requests back. Delivery is at least once: a request may come again after a
 * crash or a rebalance, which the runner drops (a started or settled run is not answered twice).
 */
export interface RunRequests {
  start(handle: (event: RecordedEvent) => Promise<void>): Promise<{ stop(): Promise<void> }>;
}

/**
 * From the bus, in a consumer group (`kesher.thread`, the relay's copy of the log): what several worker
 * processes share, each handed part of the requests (Kafka partitions).
 */
export function runRequestsFromBus(bus: MessageBus, groupId: string): RunRequests {
  return {
    start: (handle) =>
      bus.consume({
        groupId,
        topics: [topicFor(streamIds.thread('x'))],
        // A thread's messages and a run's other events are skipped unread (docs/bus.md).
        eventTypes: ['RunRequested'],
        handler: (message) => handle(fromMessage(message)),
      }),
  };
}

/**
 * From the log itself, behind a checkpoint (`name` in projection_checkpoints): for the process that relays
 * the log to the bus and answers runs too (the embedded default), where the bus was a second copy of
 * every request, one more write and one more hand-off between a visitor's message and its answer. Only one
 * runner reads behind a checkpoint name: this is not for several worker processes, which share the bus.
 *
 * A first start (no checkpoint yet) follows the log from its newest event, not from its beginning: a new
 * deployment's log is empty, and an older one's requests were the bus's to hand out, answered or past
 * their deadline by now (the sweep expires those still open). Read from the beginning, a deployment's
 * whole history of requests would have been handed to the runner, each reading its thread, before its new
 * visitors' questions.
 */
export function runRequestsFromLog(deps: {
  eventStore: EventStore;
  sql: Sql;
  name: string;
  onError?: (error: unknown) => void;
}): RunRequests {
  return {
    async start(handle) {
      const subscription = createCheckpointedSubscription({
        name: deps.name,
        version: 1,
        firstStart: () => deps.eventStore.headPosition(),
        eventStore: deps.eventStore,
        sql: deps.sql,
        filter: { eventTypes: ['RunRequested'] },
        handler: {
          async deliver(events) {
            for (const event of events) await handle(event);
          },
        },
        // As the relay's: one checkpoint write a second at most; a crash hands that second's requests again.
        checkpointDelayMs: 1000,
        progress: createProgressBoard(),
        onError: deps.onError,
      });
      await subscription.start();
      return subscription;
    },
  };
}
