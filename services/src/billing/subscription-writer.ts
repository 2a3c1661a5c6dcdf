import { streamIds } from '@kesher/contracts';
import { handleCommand, type CommandContext, type Loaded } from '../platform/commands/command-handler.js';
import type { AppendResult, EventStore } from '../platform/event-store/event-store.port.js';
import {
  subscriptionDecider,
  type SubscriptionCommand,
  type SubscriptionState,
} from '../domain/subscription/subscription.decider.js';

/** How many owners' subscription states a process remembers between webhooks. */
const REMEMBERED_STREAMS = 10_000;

/**
 * Decides Stripe's webhooks on the owner's subscription stream without reading the stream each time:
 * the state after the last append this process made (or read) is remembered with its revision and given
 * to the command handler as `from`. Anything written meanwhile by someone else (the billing routes,
 * another process) makes that append conflict; the handler then reads the stream and decides afresh — so
 * every decision is still taken on the state it is appended after, only without a read when nothing else wrote.
 *
 * Deliveries for one owner are decided one after the other in this process (they would only conflict
 * and retry otherwise); different owners run side by side, and their appends share the store's group
 * commit. A replay of a Stripe event already applied is answered from the remembered state, no query.
 */
export function createSubscriptionWriter(deps: { eventStore: EventStore; maxAttempts?: number }) {
  const maxAttempts = deps.maxAttempts ?? 6;
  const known = new Map<string, Loaded<SubscriptionState>>();
  const queues = new Map<string, Promise<unknown>>();

  function remember(streamId: string, entry: Loaded<SubscriptionState>) {
    known.delete(streamId);
    if (known.size >= REMEMBERED_STREAMS) known.delete(known.keys().next().value!);
    known.set(streamId, entry);
  }

  async function decide(
    streamId: string,
    command: SubscriptionCommand,
    context: CommandContext,
  ): Promise<{ appended?: AppendResult }> {
    const from = known.get(streamId);
    // Whatever fails leaves the remembered state in doubt: the next delivery reads the stream.
    known.delete(streamId);
    const handled = await handleCommand(deps.eventStore, subscriptionDecider, streamId, command, context, {
      from,
      maxAttempts,
    });
    remember(streamId, { state: handled.state, revision: handled.revision });
    return { appended: handled.appended };
  }

  return {
    /** Decides `command` on the owner's subscription stream and appends what it decides (nothing: no append). */
    apply(
      ownerId: string,
      command: SubscriptionCommand,
      context: CommandContext,
    ): Promise<{ appended?: AppendResult }> {
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
