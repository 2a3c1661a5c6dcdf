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
/** How long what was relayed may wait for its checkpoint to be written. */
const CHECKPOINT_DELAY_MS = 100;

export function createRelay(deps: RelayDeps) {
  const name = deps.name ?? 'relay';
  const retryDelayMs = deps.retryDelayMs ?? 1000;
  let subscription: Subscription | undefined;
  let position: AllPosition = START_POSITION;
  let running = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const waiters = createPositionWaiters();
  /** The checkpoint as stored: it follows `position` (what the bus has acknowledged) shortly. */
  let persisted: AllPosition = START_POSITION;
  let persisting: Promise<void> = Promise.resolve();
  let persistTimer: NodeJS.Timeout | undefined;
  let checkpointMoved = false;

  // One checkpoint write for what was relayed in the last moment rather than one per batch: a crash in
  // between re-sends those events, and consumers drop them by event id.
  function persist() {
    clearTimeout(persistTimer);
    persistTimer = undefined;
    persisting = persisting.then(async () => {
      const target = position;
      if (comparePositions(target, persisted) === 0) return;
      if (await advanceCheckpoint(deps.sql, name, persisted, target)) persisted = target;
      else checkpointMoved = true;
    });
    return persisting.catch((error) => deps.onError?.(error));
  }
  const persistSoon = () => {
    persistTimer ??= setTimeout(() => void persist(), CHECKPOINT_DELAY_MS);
  };

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
        if (checkpointMoved) throw new Error('relay checkpoint moved by another relay');
        await Promise.all([...byTopic].map(([topic, messages]) => deps.bus.publish(topic, messages)));
        position = batch.next;
        persistSoon();
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
      await persisting.catch(() => {});
      checkpointMoved = false;
      position = persisted = await loadCheckpoint();
      subscribe();
    } catch (error) {
      deps.onError?.(error);
      retryTimer = setTimeout(() => void resume(), retryDelayMs);
    }
  }

  return {
    async start() {
      running = true;
      checkpointMoved = false;
      position = persisted = await loadCheckpoint();
      subscribe();
    },
    async stop() {
      running = false;
      clearTimeout(retryTimer);
      await subscription?.stop();
      await persist();
    },
    position: () => position,
    /** Resolves once everything up to `target` has been handed to the bus. */
    async waitForPosition(target: AllPosition, timeoutMs = 30_000): Promise<boolean> {
      return waiters.wait(() => comparePositions(position, target) >= 0, timeoutMs);
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
