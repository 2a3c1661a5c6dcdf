import { randomUUID } from 'node:crypto';
import { streamIds } from '@kesher/contracts';
import type { CommandContext } from '../platform/commands/command-handler.js';
import { aggregateStream } from '../platform/commands/aggregate-stream.js';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from '../platform/event-store/event-store.port.js';
import { subscriptionDecider, type SubscriptionCommand, type SubscriptionState } from '../domain/subscription/subscription.decider.js';

/** How many owners' subscription states a process remembers between webhooks. */
const REMEMBERED_STREAMS = 10_000;

/**
 * Decides Stripe's webhooks on the owner's subscription stream without reading the stream each time:
 * the state after the last append this process made (or read) is remembered with its revision, and the
 * next decision is appended with that revision as expected. Anything written meanwhile by someone else
 * (the billing routes, another process) makes that append fail with a version conflict; the stream is
 * then read again and the decision taken afresh — so every decision is still taken on the state it is
 * appended after, as the command handler does, only without a read when nothing else wrote.
 *
 * Deliveries for one owner are decided one after the other in this process (they would only conflict
 * and retry otherwise); different owners run side by side, and their appends share the store's group
 * commit. A replay of a Stripe event already applied is answered from the remembered state, no query.
 */
export function createSubscriptionWriter(deps: { eventStore: EventStore; maxAttempts?: number }) {
  const maxAttempts = deps.maxAttempts ?? 6;
  const known = new Map<string, { state: SubscriptionState; revision: bigint | 'no_stream' }>();
  const queues = new Map<string, Promise<unknown>>();

  function remember(streamId: string, entry: { state: SubscriptionState; revision: bigint | 'no_stream' }) {
    known.delete(streamId);
    if (known.size >= REMEMBERED_STREAMS) known.delete(known.keys().next().value!);
    known.set(streamId, entry);
  }

  async function decide(streamId: string, command: SubscriptionCommand, context: CommandContext): Promise<{ appended?: AppendResult }> {
    const causationId = context.causationId ?? randomUUID();
    for (let attempt = 1; ; attempt++) {
      let current = known.get(streamId);
      if (!current) {
        const loaded = await aggregateStream(deps.eventStore, subscriptionDecider, streamId);
        current = { state: loaded.state, revision: loaded.revision };
        remember(streamId, current);
      }
      const events = subscriptionDecider.decide(command, current.state);
      if (events.length === 0) return {};
      try {
        const appended = await deps.eventStore.appendToStream(
          streamId,
          events.map((event) => ({
            type: event.type,
            data: event.data,
            metadata: { eventId: randomUUID(), correlationId: context.correlationId, causationId, actor: context.actor, timestamp: context.now.toISOString(), schemaVersion: 1 },
          })),
          { expectedRevision: current.revision },
        );
        remember(streamId, { state: events.reduce(subscriptionDecider.evolve, current.state), revision: appended.nextExpectedRevision });
        return { appended };
      } catch (error) {
        known.delete(streamId);
        if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
      }
    }
  }

  return {
    /** Decides `command` on the owner's subscription stream and appends what it decides (nothing: no append). */
    apply(ownerId: string, command: SubscriptionCommand, context: CommandContext): Promise<{ appended?: AppendResult }> {
      const streamId = streamIds.subscription(ownerId);
      const before = queues.get(streamId) ?? Promise.resolve();
      const run = before.then(
        () => decide(streamId, command, context),
        () => decide(streamId, command, context),
      );
      const settled = run.catch(() => undefined);
      queues.set(streamId, settled);
      void settled.then(() => {
        if (queues.get(streamId) === settled) queues.delete(streamId);
      });
      return run;
    },
  };
}

export type SubscriptionWriter = ReturnType<typeof createSubscriptionWriter>;
