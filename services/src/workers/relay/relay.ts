import type { AllPosition, RecordedEvent } from '@kesher/contracts';
import type { MessageBus, OutgoingMessage } from '../../platform/bus/message-bus.port.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import type { Metrics } from '../../platform/metrics/metrics.js';
import { createCheckpointedSubscription } from '../../platform/projections/checkpointed-subscription.js';
import { createProgressBoard } from '../../platform/projections/progress.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { toMessage, topicFor } from '../../platform/bus/relayed-event.js';

export interface RelayDeps {
  eventStore: EventStore;
  bus: MessageBus;
  /** Where the relay keeps its checkpoint. */
  sql: Sql;
  metrics?: Metrics;
  batchSize?: number;
  /** Checkpoint name; one relay per bus. */
  name?: string;
  onError?: (error: unknown) => void;
  retryDelayMs?: number;
  /** How long an append's wake-up waits before the read, so a moment's appends go to the bus together (default 0). */
  batchDelayMs?: number;
}

/**
 * How long what was relayed may wait for its checkpoint to be written: one write a second however busy the
 * log (at 100 ms it was about one a chat turn); a crash re-sends that second, which consumers drop by event id.
 */
const CHECKPOINT_DELAY_MS = 1000;

/**
 * $all → bus, on the platform's checkpointed subscription with a `deliver` handler: the checkpoint moves
 * only after the bus acknowledged a batch, so a crash or a broker outage re-sends from the last written
 * checkpoint. Nothing is lost, and the few duplicates carry the same event id, which consumers use to
 * drop them. The checkpoint is written once for what was relayed in the last moment rather than once
 * per batch: a crash in between re-sends those events too.
 */
export function createRelay(deps: RelayDeps) {
  const name = deps.name ?? 'relay';
  const progress = createProgressBoard();

  async function deliver(events: readonly RecordedEvent[]) {
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const event of events) {
      if (event.type.startsWith('$')) continue;
      const topic = topicFor(event.streamId);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), toMessage(event)]);
    }
    await Promise.all([...byTopic].map(([topic, messages]) => deps.bus.publish(topic, messages)));
  }

  const subscription = createCheckpointedSubscription({
    name,
    version: 1,
    eventStore: deps.eventStore,
    sql: deps.sql,
    batchSize: deps.batchSize,
    handler: { deliver },
    checkpointDelayMs: CHECKPOINT_DELAY_MS,
    batchDelayMs: deps.batchDelayMs,
    progress,
    retryDelayMs: deps.retryDelayMs,
    onError: deps.onError,
  });

  let lagTimer: NodeJS.Timeout | undefined;
  async function reportLag() {
    // Caught up means nothing behind: no need to ask the log where its head is.
    if (subscription.caughtUp()) return void deps.metrics?.relayLag.set(0);
    const head = await deps.eventStore.headPosition();
    const behind = head.prepare - subscription.position().prepare;
    deps.metrics?.relayLag.set(Number(behind > 0n && !subscription.caughtUp() ? behind : 0n));
  }

  return {
    async start() {
      progress.open();
      await subscription.start();
      if (deps.metrics) {
        lagTimer = setInterval(() => void reportLag().catch(() => {}), 1000);
        lagTimer.unref();
      }
    },
    async stop() {
      clearInterval(lagTimer);
      await subscription.stop();
      progress.close();
    },
    position: () => subscription.position(),
    /** Resolves once everything up to `target` has been handed to the bus; whoever waits ends the batching delay. */
    waitForPosition(target: AllPosition, timeoutMs = 30_000): Promise<boolean> {
      subscription.hurry(target);
      return progress.waitFor([name], target, timeoutMs);
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
