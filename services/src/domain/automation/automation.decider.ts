import {
  automationLimits,
  automationMessages as M,
  type ActionFields,
  type ExternalEndpointStored,
  type GuidelineFields,
  type WorkflowFields,
} from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * One owner's automation (stream `automation-<ownerId>`): workflows, guidelines, actions and each of the
 * owner's assistants' external API endpoints. One aggregate per owner rather than one per item because
 * the items refer to each other: a workflow may only link actions that exist, and deleting an action
 * unlinks it everywhere — both decided against one consistent state, in one append. It also gives the
 * owner's configuration one total order, so "what was it when this conversation happened" is a fold of
 * one stream up to an instant. Owners hold hundreds of items, not millions: the fold stays cheap.
 */
const automationEventTypes = [
  'WorkflowCreated',
  'WorkflowUpdated',
  'WorkflowDeleted',
  'GuidelineCreated',
  'GuidelineUpdated',
  'GuidelineDeleted',
  'ActionCreated',
  'ActionUpdated',
  'ActionDeleted',
  'ExternalApiConfigured',
  'ExternalApiConfigDeleted',
] as const;
export type AutomationEvent = EventOf<(typeof automationEventTypes)[number]>;

export interface AutomationState {
  ownerId: string | null;
  workflows: Map<string, WorkflowFields>;
  guidelines: Map<string, GuidelineFields>;
  actions: Map<string, ActionFields>;
  externalApis: Map<string, ExternalEndpointStored[]>;
}

export type AutomationCommand =
  | { type: 'SaveWorkflow'; data: { ownerId: string; workflowId: string; workflow: WorkflowFields; create: boolean } }
  | { type: 'DeleteWorkflow'; data: { ownerId: string; workflowId: string } }
  | {
      type: 'SaveGuideline';
      data: { ownerId: string; guidelineId: string; guideline: GuidelineFields; create: boolean };
    }
  | { type: 'DeleteGuideline'; data: { ownerId: string; guidelineId: string } }
  | { type: 'SaveAction'; data: { ownerId: string; actionId: string; action: ActionFields; create: boolean } }
  | { type: 'DeleteAction'; data: { ownerId: string; actionId: string } }
  | {
      type: 'ConfigureExternalApi';
      data: { ownerId: string; assistantId: string; endpoints: ExternalEndpointStored[] };
    }
  | { type: 'DeleteExternalApiConfig'; data: { ownerId: string; assistantId: string } };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function checkLinks(state: AutomationState, linked: readonly string[]) {
  for (const id of linked) if (!state.actions.has(id)) throw new DomainError('invalid', M.unknownLinkedAction(id));
}

export const automationDecider: Decider<AutomationState, AutomationCommand, AutomationEvent> = {
  eventTypes: automationEventTypes,
  initialState: () => ({
    ownerId: null,
    workflows: new Map(),
    guidelines: new Map(),
    actions: new Map(),
    externalApis: new Map(),
  }),

  // Like the crawler-site decider, evolve updates the maps of the state it is given: every fold starts from a fresh initialState().
  evolve(state, event) {
    const owned = { ...state, ownerId: state.ownerId ?? event.data.ownerId };
    switch (event.type) {
      case 'WorkflowCreated':
      case 'WorkflowUpdated':
        state.workflows.set(event.data.workflowId, event.data.workflow);
        return owned;
      case 'WorkflowDeleted':
        state.workflows.delete(event.data.workflowId);
        return owned;
      case 'GuidelineCreated':
      case 'GuidelineUpdated':
        state.guidelines.set(event.data.guidelineId, event.data.guideline);
        return owned;
      case 'GuidelineDeleted':
        state.guidelines.delete(event.data.guidelineId);
        return owned;
      case 'ActionCreated':
      case 'ActionUpdated':
        state.actions.set(event.data.actionId, event.data.action);
        return owned;
      case 'ActionDeleted': {
        const { actionId } = event.data;
        state.actions.delete(actionId);
        for (const [id, workflow] of state.workflows)
          if (workflow.linkedActions.includes(actionId))
            state.workflows.set(id, {
              ...workflow,
              linkedActions: workflow.linkedActions.filter((a) => a !== actionId),
            });
        for (const [id, guideline] of state.guidelines)
          if (guideline.linkedActions.includes(actionId))
            state.guidelines.set(id, {
              ...guideline,
              linkedActions: guideline.linkedActions.filter((a) => a !== actionId),
            });
        return owned;
      }
      case 'ExternalApiConfigured':
        state.externalApis.set(event.data.assistantId, event.data.endpoints);
        return owned;
      case 'ExternalApiConfigDeleted':
        state.externalApis.delete(event.data.assistantId);
        return owned;
      default:
        return state;
    }
  },

  decide(command, state) {
    if (state.ownerId !== null && state.ownerId !== command.data.ownerId)
      throw new DomainError('not_found', M.workflowNotFound);
    switch (command.type) {
      case 'SaveWorkflow': {
        const { ownerId, workflowId, workflow, create } = command.data;
        const existing = state.workflows.get(workflowId);
        if (!create && !existing) throw new DomainError('not_found', M.workflowNotFound);
        if (create && existing) return [];
        if (create && state.workflows.size >= automationLimits.workflowsPerOwner)
          throw new DomainError('conflict', M.workflowLimit(automationLimits.workflowsPerOwner));
        checkLinks(state, workflow.linkedActions);
        if (existing && same(existing, workflow)) return [];
        return [{ type: create ? 'WorkflowCreated' : 'WorkflowUpdated', data: { ownerId, workflowId, workflow } }];
      }
      case 'DeleteWorkflow': {
        if (!state.workflows.has(command.data.workflowId)) throw new DomainError('not_found', M.workflowNotFound);
        return [{ type: 'WorkflowDeleted', data: command.data }];
      }
      case 'SaveGuideline': {
        const { ownerId, guidelineId, guideline, create } = command.data;
        const existing = state.guidelines.get(guidelineId);
        if (!create && !existing) throw new DomainError('not_found', M.guidelineNotFound);
        if (create && existing) return [];
        if (create && state.guidelines.size >= automationLimits.guidelinesPerOwner)
          throw new DomainError('conflict', M.guidelineLimit(automationLimits.guidelinesPerOwner));
        checkLinks(state, guideline.linkedActions);
        if (existing && same(existing, guideline)) return [];
        return [{ type: create ? 'GuidelineCreated' : 'GuidelineUpdated', data: { ownerId, guidelineId, guideline } }];
      }
      case 'DeleteGuideline': {
        if (!state.guidelines.has(command.data.guidelineId)) throw new DomainError('not_found', M.guidelineNotFound);
        return [{ type: 'GuidelineDeleted', data: command.data }];
      }
      case 'SaveAction': {
        const { ownerId, actionId, action, create } = command.data;
        const existing = state.actions.get(actionId);
        if (!create && !existing) throw new DomainError('not_found', M.actionNotFound);
        if (create && existing) return [];
        if (create && state.actions.size >= automationLimits.actionsPerOwner)
          throw new DomainError('conflict', M.actionLimit(automationLimits.actionsPerOwner));
        if (existing && same(existing, action)) return [];
        return [{ type: create ? 'ActionCreated' : 'ActionUpdated', data: { ownerId, actionId, action } }];
      }
      case 'DeleteAction': {
        const { ownerId, actionId } = command.data;
        if (!state.actions.has(actionId)) throw new DomainError('not_found', M.actionNotFound);
        const unlinkedFrom = [
          ...[...state.workflows].filter(([, w]) => w.linkedActions.includes(actionId)).map(([id]) => id),
          ...[...state.guidelines].filter(([, g]) => g.linkedActions.includes(actionId)).map(([id]) => id),
        ];
        return [{ type: 'ActionDeleted', data: { ownerId, actionId, unlinkedFrom } }];
      }
      case 'ConfigureExternalApi': {
        const { ownerId, assistantId, endpoints } = command.data;
        if (same(state.externalApis.get(assistantId), endpoints)) return [];
        return [{ type: 'ExternalApiConfigured', data: { ownerId, assistantId, endpoints } }];
      }
      case 'DeleteExternalApiConfig': {
        if (!state.externalApis.has(command.data.assistantId))
          throw new DomainError('not_found', M.externalConfigNotFound);
        return [{ type: 'ExternalApiConfigDeleted', data: command.data }];
      }
      default:
        return [];
    }
  },
};
