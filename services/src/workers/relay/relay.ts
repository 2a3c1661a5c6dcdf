import { comparePositions, START_POSITION, type AllPosition } from '@kesher/contracts';
import type { MessageBus } from '../../platform/bus/message-bus.port.js';
import type { EventStore, Subscription } from '../../platform/event-store/event-store.port.js';
import type { Metrics } from '../../platform/metrics/metrics.js';
import { createPositionWaiters } from '../../platform/projections/position-waiters.js';
import { advanceCheckpoint, checkpointsSchema, readCheckpoint, resetCheckpoint } from '../../platform/projections/checkpoints.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { toMessage, topicFor } from './relayed-event.js';

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
}

/**
 * $all → bus. The checkpoint moves only after the bus acknowledged a batch, so a crash or a broker
 * outage re-sends from the last acknowledged batch: nothing is lost, and the few duplicates carry the
 * same event id, which consumers use to drop them.
 */
export function createRelay(deps: RelayDeps) {
  const name = deps.name ?? 'relay';
  const retryDelayMs = deps.retryDelayMs ?? 1000;
  let subscription: Subscription | undefined;
  let position: AllPosition = START_POSITION;
  let running = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const waiters = createPositionWaiters();

  async function loadCheckpoint(): Promise<AllPosition> {
    await deps.sql.exec(checkpointsSchema);
    const checkpoint = await readCheckpoint(deps.sql, name);
    if (checkpoint) return checkpoint.position;
    await resetCheckpoint(deps.sql, name, 1);
    return START_POSITION;
  }

  function subscribe() {
    subscription = deps.eventStore.subscribeToAll({
      after: position,
      maxCount: deps.batchSize ?? 500,
      onBatch: async (batch) => {
        const byTopic = new Map<string, ReturnType<typeof toMessage>[]>();
        for (const event of batch.events) {
          if (event.type.startsWith('$')) continue;
          const topic = topicFor(event.streamId);
          byTopic.set(topic, [...(byTopic.get(topic) ?? []), toMessage(event)]);
        }
        await Promise.all([...byTopic].map(([topic, messages]) => deps.bus.publish(topic, messages)));
        if (!(await advanceCheckpoint(deps.sql, name, position, batch.next))) throw new Error('relay checkpoint moved by another relay');
        position = batch.next;
        waiters.notify();
      },
      onError: (error) => {
        if (!running) return;
        deps.onError?.(error);
        retryTimer = setTimeout(() => void resume(), retryDelayMs);
      },
    });
  }

  async function resume() {
    if (!running) return;
    try {
      position = await loadCheckpoint();
      subscribe();
    } catch (error) {
      deps.onError?.(error);
      retryTimer = setTimeout(() => void resume(), retryDelayMs);
    }
  }

  return {
    async start() {
      running = true;
      position = await loadCheckpoint();
      subscribe();
    },
    async stop() {
      running = false;
      clearTimeout(retryTimer);
      await subscription?.stop();
    },
    position: () => position,
    /** Resolves once everything up to `target` has been handed to the bus. */
    async waitForPosition(target: AllPosition, timeoutMs = 30_000): Promise<boolean> {
      return waiters.wait(() => comparePositions(position, target) >= 0, timeoutMs);
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
