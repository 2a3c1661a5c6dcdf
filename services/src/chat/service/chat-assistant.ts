import { streamIds } from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import {
  assistantDecider,
  type AssistantEvent,
  type AssistantState,
} from '../../domain/assistant/assistant.decider.js';
import { foldStream, type Fold } from '../../platform/commands/aggregate-stream.js';
import { StreamDeletedError, type EventStore } from '../../platform/event-store/event-store.port.js';

/**
 * What a chat turn needs of its assistant: who owns it, the ids its answers name it by, its current share
 * link, and its limits. The same fields as the assistants read model's row, so a row passes for one.
 */
export type ChatAssistant = Pick<
  AssistantRow,
  'id' | 'numeric_id' | 'external_id' | 'owner_id' | 'share_token' | 'chat_limit' | 'visitor_daily_limit'
>;

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
 * The assistant aggregate's own evolve over the events that change what the chat reads. Its stream also
 * holds one event per knowledge-file slot taken or freed (thousands for a large crawled site), which
 * the chat skips: it reads nothing of them. (Folding them once cost 2.5 s for 10,000, each copying the slot
 * list; the slots are now a persistent set, see assistant.decider.ts.)
 */
export const chatAssistantFold: Fold<AssistantState, AssistantEvent> = {
  eventTypes: ['AssistantCreated', 'AssistantUpdated', 'AssistantDeleted', 'ShareTokenGenerated', 'ShareTokenRevoked'],
  initialState: assistantDecider.initialState,
  evolve: assistantDecider.evolve,
};

/** From this many events on, a stream is remembered folded and only its tail is read (see below). */
const LONG_STREAM = 100;
const REMEMBERED = 1000;

/**
 * Reads a turn's assistant from its own stream (the write side), not from the assistants read model: the
 * link a visitor's message is checked against and the chat_limit the thread decider applies are the ones
 * in force now, on every API process, however far the projector is — an owner who rotates the link a
 * moment before a visitor writes is obeyed.
 *
 * A long stream (a crawled site's slots) is remembered folded up to its revision, and each call reads
 * only the events after it: a stream's past never changes, so this saves reading it again without ever
 * answering from an older state — every call still sees every event appended since, on any process.
 * (Reading 1,000 events costs ~25 ms, 10,000 ~550 ms; the tail of one that did not move, two small queries.)
 */
export function createChatAssistants(eventStore: EventStore) {
  const states = createAssistantStates(eventStore);
  return async (assistantId: string): Promise<ChatAssistant | undefined> => {
    const state = await states(assistantId);
    return state && chatAssistantOf(state);
  };
}

/**
 * The assistant's state as its stream has it now (see createChatAssistants), or undefined when there is
 * none or it was deleted: what the ai-runner answers by (its name, instructions and Sales Mode).
 */
export function createAssistantStates(eventStore: EventStore) {
  const remembered = new Map<string, { state: AssistantState; revision: bigint }>();
  return async function load(assistantId: string): Promise<ActiveAssistant | undefined> {
    const stream = streamIds.assistant(assistantId);
    const known = remembered.get(assistantId);
    let stored;
    try {
      stored = await eventStore.readStream(stream, known ? { fromRevision: known.revision + 1n } : undefined);
    } catch (error) {
      // A tombstoned stream: no assistant any more.
      if (!(error instanceof StreamDeletedError)) throw error;
      remembered.delete(assistantId);
      return undefined;
    }
    const tail = foldStream(
      { ...chatAssistantFold, initialState: () => known?.state ?? chatAssistantFold.initialState() },
      stored,
    );
    const state = tail.state;
    const revision = tail.revision === 'no_stream' ? known?.revision : tail.revision;
    if (revision !== undefined && revision + 1n >= LONG_STREAM) {
      remembered.delete(assistantId);
      remembered.set(assistantId, { state, revision });
      if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!);
    }
    return state.status === 'active' ? { ...state, status: 'active' } : undefined;
  };
}

/** An assistant that exists and is not deleted, as its stream has it. */
export type ActiveAssistant = Exclude<AssistantState, { status: 'none' }> & { status: 'active' };
