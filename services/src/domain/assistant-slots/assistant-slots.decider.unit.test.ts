import { messages } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { assistantSlotsDecider, type AssistantSlotsEvent } from './assistant-slots.decider.js';

const spec = deciderSpec(assistantSlotsDecider);
const take = (assistantId: string, limit = 1) => ({
  type: 'TakeAssistantSlot' as const,
  data: { ownerId: 'o1', assistantId, limit },
});
const taken = (assistantId: string): AssistantSlotsEvent => ({
  type: 'AssistantSlotTaken',
  data: { ownerId: 'o1', assistantId },
});
const freed = (assistantId: string): AssistantSlotsEvent => ({
  type: 'AssistantSlotFreed',
  data: { ownerId: 'o1', assistantId },
});

describe("assistant slots (the plan's max_assistants)", () => {
  it('gives a slot while the owner has fewer assistants than the plan allows, once per assistant', () => {
    spec
      .given([])
      .when(take('a1'))
      .then([taken('a1')]);
    spec
      .given([taken('a1')])
      .when(take('a1'))
      .then([]);
    spec
      .given([taken('a1')])
      .when(take('a2', 2))
      .then([taken('a2')]);
  });

  it("refuses the next assistant at the limit with the plan's text", () => {
    spec
      .given([taken('a1')])
      .when(take('a2'))
      .thenThrows(DomainError, messages.assistantLimitReached(1));
    spec
      .given([taken('a1'), taken('a2')])
      .when(take('a3', 2))
      .thenThrows(
        DomainError,
        "You have reached your plan's limit of 2 assistants. Delete an assistant or upgrade the plan to create another.",
      );
  });

  it('gives room again when an assistant is deleted', () => {
    spec
      .given([taken('a1')])
      .when({ type: 'FreeAssistantSlots', data: { ownerId: 'o1', assistantIds: ['a1', 'a1', 'never'] } })
      .then([freed('a1')]);
    spec
      .given([taken('a1'), freed('a1')])
      .when(take('a2'))
      .then([taken('a2')]);
  });
});
