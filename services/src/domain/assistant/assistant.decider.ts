import { countWords, isWebUrl, limits, messages, type AssistantProfile, type KesherEvent } from '@kesher/contracts';
import { DomainError, type Decider } from '../../platform/commands/decider.js';

export type AssistantState =
  | { status: 'none' }
  | { status: 'active' | 'deleted'; assistantId: string; ownerId: string; profile: AssistantProfile };

export type AssistantCommand =
  | {
      type: 'CreateAssistant';
      data: { assistantId: string; numericId: number; externalId: string; ownerId: string; profile: AssistantProfile };
    }
  | { type: 'UpdateAssistant'; data: { assistantId: string; ownerId: string; changes: Partial<AssistantProfile> } }
  | { type: 'DeleteAssistant'; data: { assistantId: string; ownerId: string } };

/** The profile rules of spec §5, enforced on the server whatever the client checked. */
export function assertValidProfile(profile: AssistantProfile): void {
  if (profile.name.trim() === '') throw new DomainError('invalid', messages.assistantNameRequired);
  if (profile.description.trim() === '' || profile.instructions.trim() === '') throw new DomainError('invalid', messages.requiredFields);
  if (countWords(profile.description) > limits.textFieldWords) throw new DomainError('invalid', messages.descriptionTooLong);
  if (countWords(profile.instructions) > limits.textFieldWords) throw new DomainError('invalid', messages.instructionsTooLong);
  if (countWords(profile.payment_processing.sales_prompt) > limits.textFieldWords) throw new DomainError('invalid', messages.salesPromptTooLong);
  for (const url of [profile.website_url, profile.web_crawler.website_url]) {
    if (url !== null && url !== '' && !isWebUrl(url)) throw new DomainError('invalid', messages.invalidWebsiteUrl);
  }
  if (profile.payment_processing.enabled && !profile.web_crawler.enabled) throw new DomainError('invalid', messages.salesModeNeedsCrawler);
}

function changedFields(current: AssistantProfile, next: AssistantProfile): Partial<AssistantProfile> {
  const changes: Partial<AssistantProfile> = {};
  for (const key of Object.keys(next) as (keyof AssistantProfile)[]) {
    if (JSON.stringify(current[key]) !== JSON.stringify(next[key])) Object.assign(changes, { [key]: next[key] });
  }
  return changes;
}

function ownedActive(state: AssistantState, ownerId: string) {
  // Another owner's assistant is reported exactly like a missing one, so ids cannot be probed.
  if (state.status !== 'active' || state.ownerId !== ownerId) throw new DomainError('not_found', messages.assistantNotFound);
  return state;
}

export const assistantDecider: Decider<AssistantState, AssistantCommand, KesherEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'AssistantCreated':
        return { status: 'active', assistantId: event.data.assistantId, ownerId: event.data.ownerId, profile: event.data.profile };
      case 'AssistantUpdated':
        return state.status === 'none' ? state : { ...state, profile: { ...state.profile, ...event.data.changes } };
      case 'AssistantDeleted':
        return state.status === 'none' ? state : { ...state, status: 'deleted' };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateAssistant': {
        if (state.status !== 'none') throw new DomainError('conflict', messages.assistantExists);
        assertValidProfile(command.data.profile);
        return [{ type: 'AssistantCreated', data: command.data }];
      }
      case 'UpdateAssistant': {
        const current = ownedActive(state, command.data.ownerId);
        const requested = { ...current.profile, ...command.data.changes };
        // Turning the scanner off turns sales mode off with it (spec §4), rather than refusing the edit.
        const crawlerTurnedOff = current.profile.web_crawler.enabled && !requested.web_crawler.enabled;
        const next = crawlerTurnedOff ? { ...requested, payment_processing: { ...requested.payment_processing, enabled: false } } : requested;
        assertValidProfile(next);
        const changes = changedFields(current.profile, next);
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'AssistantUpdated', data: { assistantId: current.assistantId, changes } }];
      }
      case 'DeleteAssistant': {
        const current = ownedActive(state, command.data.ownerId);
        return [{ type: 'AssistantDeleted', data: { assistantId: current.assistantId } }];
      }
    }
  },
};
