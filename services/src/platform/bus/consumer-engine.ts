import { setTimeout as sleep } from 'node:timers/promises';
import type { Metrics } from '../metrics/metrics.js';
import type { DeliveryLedger, PartitionRef } from './delivery-ledger.js';
import { createLaneScheduler } from './lane-scheduler.js';
import type { ConsumeOptions, DeliveredMessage } from './message-bus.port.js';

/** How a bus treats failing handlers; both adapters take it as their `deliveries` option. */
export interface DeliveryOptions {
  /** Handler attempts before a message is parked (default 5); a consumer may set its own. */
  maxAttempts?: number;
  /** Parked messages and failed attempts, by group and topic; and messages handed to handlers vs skipped for their event type. */
  metrics?: Pick<Metrics, 'busMessagesParked' | 'busHandlerFailures'> & Partial<Pick<Metrics, 'busMessages'>>;
  /** Where parkings are logged (default console.error). */
  log?: (line: string) => void;
  /** Told about every failed handler attempt (default: a console.warn line). */
  onHandlerError?: (error: unknown, message: DeliveredMessage, attempt: number, retryInMs: number) => void;
}

export const defaultMaxAttempts = 5;
/**
 * How far past the fetched messages a reservation reaches. Larger means fewer writes in normal running,
 * and after a crash more messages (those fetched since, up to this many offsets) handled one at a time
 * as suspects, each counted one attempt it may not have had.
 */
const RESERVE_AHEAD = 1_000n;
const backoff = { initialMs: 100, maxMs: 5_000 };
export const backoffMs = (attempt: number) => Math.min(backoff.maxMs, backoff.initialMs * 2 ** (attempt - 1));

/** What the adapter hears from a partition's session. */
export interface PartitionHooks {
  /** Everything before `offset` is finished (handled or parked): commit it; `urgent` after a suspect. */
  onCommitPoint(offset: bigint, urgent: boolean): void;
  /** A message finished or was given up: the backlog shrank. */
  onProgress(): void;
}

export interface PartitionSession {
  readonly ref: PartitionRef;
  /**
   * Reserves the messages durably, then queues them; `lastOffset` is the fetch's last offset (Kafka may
   * skip some, and the adapter leaves out those of event types the consumer does not handle: `skipped`
   * of them). Offsets up to `lastOffset` that were not handed over count as finished, so the commit point
   * moves past them even when nothing was handed over at all.
   */
  add(messages: readonly DeliveredMessage[], lastOffset: bigint, skipped?: number): Promise<void>;
  /** Messages added and not finished yet. */
  readonly backlog: number;
  /** The offset to commit: the lowest unfinished one, or the one after everything fetched. */
  readonly commitPoint: bigint;
  /** Forgets the queued messages (a rebalance or a restarted loop reads them again); running ones go on. */
  detach(): void;
  readonly detached: boolean;
  /** After a clean stop, once the commit point is committed: nothing of ours is in flight any more. */
  release(): Promise<void>;
}

interface Delivery {
  key: string;
  lane: string;
  /** A suspect: possibly being handled when an earlier process died. Run alone, each attempt recorded first. */
  alone: boolean;
  message: DeliveredMessage;
  offset: bigint;
  session: Session;
  /** Attempts counted before this process took the message. */
  prior: number;
  lastError: string | null;
}

type Session = PartitionSession & {
  finish(offset: bigint, urgent: boolean): void;
  signal: AbortSignal;
  hooks: PartitionHooks;
};

const refId = (ref: PartitionRef) => `${ref.groupId}\u0000${ref.topic}\u0000${ref.partition}`;
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'unknown error';

/**
 * What both buses do with the messages they fetch: handle them, several at once if the consumer asks,
 * one at a time per key and per lane; retry a failing handler after a back-off; count attempts in the
 * delivery ledger so that they survive the process; park a message after `maxAttempts`; and tell the
 * adapter how far it may commit (never past a message still being handled). The adapter fetches and
 * commits. Why reservations and suspects: docs/bus.md.
 */
export function createConsumerEngine(deps: {
  options: ConsumeOptions;
  ledger: DeliveryLedger;
  deliveries: DeliveryOptions;
  /** This process's own last reservation per partition, kept by the bus across its consumers' restarts. */
  reservations: Map<string, bigint>;
}) {
  const { options, ledger, deliveries } = deps;
  const maxAttempts = Math.max(1, options.maxAttempts ?? deliveries.maxAttempts ?? defaultMaxAttempts);
  const log = deliveries.log ?? ((line: string) => console.error(line));
  const onHandlerError = deliveries.onHandlerError ?? logHandlerError;
  const stopping = new AbortController();

  const scheduler = createLaneScheduler<Delivery>({
    concurrency: options.concurrency ?? 1,
    run: async (delivery) => {
      const outcome = await deliver(delivery).catch((error: unknown) => {
        log(`bus: delivering ${where(delivery.message)} to ${options.groupId} failed: ${describe(error)}`);
        return 'abandoned' as const;
      });
      if (outcome === 'done') delivery.session.finish(delivery.offset, delivery.alone);
      delivery.session.hooks.onProgress();
    },
  });

  const active = (delivery: Delivery) => !delivery.session.signal.aborted;

  /** Waits `ms` unless the session ends meanwhile; false if it ended. */
  async function pause(delivery: Delivery, ms: number) {
    try {
      await sleep(ms, undefined, { signal: delivery.session.signal });
      return true;
    } catch {
      return false;
    }
  }

  async function deliver(delivery: Delivery): Promise<'done' | 'abandoned'> {
    const { message, session } = delivery;
    const ref = session.ref;
    let attempts = delivery.prior;
    let lastError = delivery.lastError;
    for (let ledgerFailures = 0; ;) {
      if (!active(delivery)) return 'abandoned';
      if (attempts >= maxAttempts) return park(delivery, attempts, lastError);
      if (delivery.alone) {
        // Counted before the call: if this attempt kills the process, the next one knows.
        try {
          await ledger.recordAttempt(ref, message.offset, { attempts: attempts + 1, inFlight: true, lastError });
        } catch {
          if (!(await pause(delivery, backoffMs(++ledgerFailures)))) return 'abandoned';
          continue;
        }
      }
      attempts++;
      try {
        await options.handler(message);
        return 'done';
      } catch (error) {
        lastError = describe(error);
        const retryInMs = attempts >= maxAttempts ? 0 : backoffMs(attempts);
        deliveries.metrics?.busHandlerFailures.inc({ group: options.groupId, topic: message.topic });
        onHandlerError(error, message, attempts, retryInMs);
        // A throw is counted after the fact: the process is alive to do it.
        await ledger.recordAttempt(ref, message.offset, { attempts, inFlight: false, lastError }).catch(() => {});
        if (retryInMs > 0 && !(await pause(delivery, retryInMs))) return 'abandoned';
      }
    }
  }

  async function park(delivery: Delivery, attempts: number, lastError: string | null): Promise<'done' | 'abandoned'> {
    const { message } = delivery;
    const reason =
      lastError ?? `the consumer stopped ${attempts} times while handling it (its process died or was killed)`;
    // The consumer's own consequence first: should the process die before the letter is stored, the
    // message is parked again at the next start and onParked runs again (it is idempotent).
    if (options.onParked) {
      for (let attempt = 1; ; attempt++) {
        try {
          await options.onParked(message, reason);
          break;
        } catch (error) {
          if (!active(delivery)) return 'abandoned';
          if (attempt >= maxAttempts) {
            log(
              `bus: onParked of ${options.groupId} failed for ${where(message)}; parking it anyway: ${describe(error)}`,
            );
            break;
          }
          if (!(await pause(delivery, backoffMs(attempt)))) return 'abandoned';
        }
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const fresh = await ledger.park({
          groupId: options.groupId,
          topic: message.topic,
          partition: message.partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers: message.headers,
          attempts,
          reason,
        });
        if (fresh) {
          deliveries.metrics?.busMessagesParked.inc({ group: options.groupId, topic: message.topic });
          log(
            `bus: parked ${where(message)} (key ${message.key}) for ${options.groupId} after ${attempts} attempts: ${reason}`,
          );
        }
        return 'done';
      } catch {
        if (!(await pause(delivery, backoffMs(attempt)))) return 'abandoned';
      }
    }
  }

  function countFetched(topic: string, handled: number, skipped: number) {
    const counter = deliveries.metrics?.busMessages;
    if (!counter) return;
    if (handled > 0) counter.inc({ group: options.groupId, topic, outcome: 'handled' }, handled);
    if (skipped > 0) counter.inc({ group: options.groupId, topic, outcome: 'skipped' }, skipped);
  }

  function laneOf(message: DeliveredMessage) {
    if (!options.laneOf) return message.key;
    try {
      return options.laneOf(message);
    } catch {
      return message.key;
    }
  }

  return {
    async openPartition(ref: PartitionRef, from: bigint, hooks: PartitionHooks): Promise<PartitionSession> {
      const history = await ledger.open(ref, from);
      const id = refId(ref);
      // Messages up to the reservation may have been in a handler when a process died; unless this very
      // process made the reservation (then it knows nothing of its own died), they are suspects.
      const suspectUpTo =
        history.reservedTo !== null && history.reservedTo >= from && deps.reservations.get(id) !== history.reservedTo
          ? history.reservedTo
          : undefined;
      let reserved = history.reservedTo ?? from - 1n;
      /** Added offsets not yet below the commit point, in order; `finished` marks those done. */
      const order: bigint[] = [];
      const finished = new Set<bigint>();
      let next = from;
      let committed = from;
      const detacher = new AbortController();
      const signal = AbortSignal.any([stopping.signal, detacher.signal]);
      const advance = (urgent: boolean) => {
        const point = session.commitPoint;
        if (point > committed) {
          committed = point;
          hooks.onCommitPoint(point, urgent);
        }
      };

      const session: Session = {
        ref,
        signal,
        hooks,
        get backlog() {
          return order.length;
        },
        get commitPoint() {
          return order[0] ?? next;
        },
        get detached() {
          return detacher.signal.aborted;
        },
        async add(messages, lastOffset, skipped = 0) {
          if (signal.aborted) return;
          if (messages.length === 0) {
            countFetched(ref.topic, 0, skipped);
            // Only skipped messages: nothing to reserve or run, but the commit point may move past them.
            if (lastOffset + 1n > next) next = lastOffset + 1n;
            advance(false);
            return;
          }
          const upTo = BigInt(messages[messages.length - 1]!.offset);
          if (upTo > reserved) {
            // Reserved ahead, so that the write is one per RESERVE_AHEAD offsets rather than one per fetch.
            const to = upTo + RESERVE_AHEAD;
            await ledger.reserve(ref, to);
            reserved = to;
            deps.reservations.set(id, to);
          }
          if (signal.aborted) return;
          const batch = messages.map((message): Delivery => {
            const offset = BigInt(message.offset);
            const record = history.attempts.get(message.offset);
            const suspect = suspectUpTo !== undefined && offset <= suspectUpTo;
            order.push(offset);
            return {
              key: `k:${message.key}`,
              lane: `l:${laneOf(message)}`,
              alone: suspect,
              message,
              offset,
              session,
              // A suspect's unrecorded attempt (the one the process died in) counts too.
              prior: (record?.attempts ?? 0) + (suspect && !record?.inFlight ? 1 : 0),
              lastError: record?.lastError ?? null,
            };
          });
          next = lastOffset + 1n;
          // Counted once queued: a reservation that failed has the adapter fetch (and count) them again.
          countFetched(ref.topic, batch.length, skipped);
          scheduler.add(batch);
        },
        finish(offset, urgent) {
          // After a detach the messages are read again; after a stop, what finished is still committed.
          if (detacher.signal.aborted) return;
          finished.add(offset);
          while (order.length > 0 && finished.has(order[0]!)) finished.delete(order.shift()!);
          advance(urgent);
        },
        detach() {
          detacher.abort();
          scheduler.drop((delivery) => delivery.session === session);
        },
        async release() {
          const to = session.commitPoint - 1n;
          if (deps.reservations.get(id) !== reserved || reserved <= to) return;
          await ledger.release(ref, to, reserved);
          await ledger.forgetBelow(ref, session.commitPoint);
          deps.reservations.set(id, to);
        },
      };
      return session;
    },

    get stopping() {
      return stopping.signal.aborted;
    },

    /** Stops handing out messages and waits for the running handlers; then the adapter commits and releases. */
    async stop() {
      stopping.abort();
      scheduler.drop(() => true);
      await scheduler.idle();
    },
  };
}

export type ConsumerEngine = ReturnType<typeof createConsumerEngine>;

const where = (message: DeliveredMessage) => `${message.topic}[${message.partition}]@${message.offset}`;

function logHandlerError(error: unknown, message: DeliveredMessage, attempt: number, retryInMs: number) {
  console.warn(
    `bus: handler failed on ${where(message)} (attempt ${attempt})${retryInMs > 0 ? `, retrying in ${retryInMs} ms` : ''}: ${describe(error)}`,
  );
}
