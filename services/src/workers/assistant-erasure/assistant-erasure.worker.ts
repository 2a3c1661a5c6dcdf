import { streamIds } from '@kesher/contracts';
import type { AssistantErasure } from '../../assistants/index.js';
import { assistantDecider, fileSlotsOf } from '../../domain/assistant/assistant.decider.js';
import type { PlanAllowances } from '../../plans/index.js';
import type { Consumer, MessageBus } from '../../platform/bus/message-bus.port.js';
import { aggregateStream, eventOf } from '../../platform/commands/aggregate-stream.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { fromMessage, topicFor } from '../../platform/bus/relayed-event.js';

export interface AssistantErasureWorkerDeps {
  bus: MessageBus;
  eventStore: EventStore;
  erase: AssistantErasure;
  allowances: Pick<PlanAllowances, 'releaseAssistants'>;
  groupId?: string;
  clock?: () => Date;
}

/**
 * The safety net of an assistant's deletion. `DELETE /assistants/{id}` records `AssistantDeleted`, then
 * gives its plan slot back and deletes its files and conversations before answering; a process that dies
 * in between would leave them behind. This worker reacts to every `AssistantDeleted` and does the same —
 * all of it idempotent, so after a normal deletion it finds nothing left to do, and after a cut-short one
 * it finishes the job. A group seen for the first time starts at the beginning, so a deployment that had
 * deletions before this worker existed is cleaned up too.
 */
export function createAssistantErasureWorker(deps: AssistantErasureWorkerDeps) {
  const clock = deps.clock ?? (() => new Date());
  let consumer: Consumer | undefined;
  return {
    async start() {
      consumer = await deps.bus.consume({
        groupId: deps.groupId ?? 'assistant-erasure',
        topics: [topicFor(streamIds.assistant('x'))],
        eventTypes: ['AssistantDeleted'],
        handler: async (message) => {
          const deleted = eventOf(['AssistantDeleted'], fromMessage(message));
          if (!deleted) return;
          const { assistantId } = deleted.data;
          const { state } = await aggregateStream(deps.eventStore, assistantDecider, streamIds.assistant(assistantId));
          if (state.status !== 'deleted') return;
          const context = {
            actor: { kind: 'system' as const, id: 'assistant-erasure' },
            correlationId: deleted.metadata.correlationId,
            causationId: deleted.metadata.eventId,
            now: clock(),
          };
          await deps.allowances.releaseAssistants(context, state.ownerId, [assistantId]);
          await deps.erase(context, { ownerId: state.ownerId, assistantId, fileSlots: fileSlotsOf(state) });
        },
      });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
