import { messages } from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * The plan's max_assistants, race-free. Every assistant of an owner holds a slot on one stream per owner
 * (`assistantslots-<ownerId>`). Taking a slot is decided on that stream's state and appended with its
 * expected revision, so twenty creates at the same instant conflict there and retry one after the other:
 * only as many succeed as the plan has slots. (A count in the read model could not do this: it lags the
 * log, and every create in flight would see the same free place. A unique-key reservation table would,
 * but the log is where every other decision of Kesher is serialised, and it keeps the history.)
 */
export interface AssistantSlotsState {
  /** Assistant ids holding a slot, oldest first. */
  taken: readonly string[];
}

export type AssistantSlotsCommand =
  | { type: 'TakeAssistantSlot'; data: { ownerId: string; assistantId: string; limit: number } }
  /** Frees the slots of deleted assistants (and of creates that never completed). */
  | { type: 'FreeAssistantSlots'; data: { ownerId: string; assistantIds: readonly string[] } };

/** The events this aggregate's stream holds. */
const assistantSlotsEventTypes = ['AssistantSlotTaken', 'AssistantSlotFreed'] as const;
export type AssistantSlotsEvent = EventOf<(typeof assistantSlotsEventTypes)[number]>;

export const assistantSlotsDecider: Decider<AssistantSlotsState, AssistantSlotsCommand, AssistantSlotsEvent> = {
  eventTypes: assistantSlotsEventTypes,
  initialState: () => ({ taken: [] }),

  evolve(state, event) {
    switch (event.type) {
      case 'AssistantSlotTaken':
        return state.taken.includes(event.data.assistantId)
          ? state
          : { taken: [...state.taken, event.data.assistantId] };
      case 'AssistantSlotFreed':
        return { taken: state.taken.filter((id) => id !== event.data.assistantId) };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'TakeAssistantSlot': {
        const { ownerId, assistantId, limit } = command.data;
        if (state.taken.includes(assistantId)) return [];
        if (state.taken.length >= limit) throw new DomainError('forbidden', messages.assistantLimitReached(limit));
        return [{ type: 'AssistantSlotTaken', data: { ownerId, assistantId } }];
      }
      case 'FreeAssistantSlots': {
        const { ownerId } = command.data;
        const held = [...new Set(command.data.assistantIds)].filter((id) => state.taken.includes(id));
        return held.map((assistantId) => ({ type: 'AssistantSlotFreed' as const, data: { ownerId, assistantId } }));
      }
    }
  },
};
