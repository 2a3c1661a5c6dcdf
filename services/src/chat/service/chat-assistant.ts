import { streamIds } from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import { assistantDecider, type AssistantState } from '../../domain/assistant/assistant.decider.js';
import { aggregateStream } from '../../platform/commands/aggregate-stream.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';

/**
 * What a chat turn needs of its assistant: who owns it, the ids its answers name it by, its current share
 * link, and its limits. The same fields as the assistants read model's row, so a row passes for one.
 */
export type ChatAssistant = Pick<AssistantRow, 'id' | 'numeric_id' | 'external_id' | 'owner_id' | 'share_token' | 'chat_limit' | 'visitor_daily_limit'>;

/** The assistant as its stream has it; undefined when it does not exist or was deleted (both read as not found). */
export function chatAssistantOf(state: AssistantState): ChatAssistant | undefined {
  if (state.status !== 'active') return undefined;
  return {
    id: state.assistantId,
    numeric_id: state.numericId,
    external_id: state.externalId,
    owner_id: state.ownerId,
    share_token: state.shareToken,
    chat_limit: state.profile.chat_limit,
    visitor_daily_limit: state.profile.visitor_daily_limit ?? null,
  };
}

/**
 * Read from the assistant's own stream (the write side), not from the assistants read model: the link a
 * visitor's message is checked against and the chat_limit the thread decider applies are the ones in force
 * now, on every API process, however far the projector is — an owner who rotates the link a moment before
 * a visitor writes is obeyed.
 */
export async function loadChatAssistant(eventStore: EventStore, assistantId: string): Promise<ChatAssistant | undefined> {
  return chatAssistantOf((await aggregateStream(eventStore, assistantDecider, streamIds.assistant(assistantId))).state);
}
