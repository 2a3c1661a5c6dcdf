import {
  automationLimits,
  automationMessages as M,
  type ActionFields,
  type GuidelineFields,
  type WorkflowFields,
} from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { automationDecider, type AutomationEvent } from './automation.decider.js';

const spec = deciderSpec(automationDecider);
const action: ActionFields = {
  title: 'Order status',
  description: '',
  type: 'api',
  apiEndpoint: 'https://shop.example/orders/{{id}}',
  apiMethod: 'GET',
  apiHeaders: [],
  apiBodyTemplate: '',
  apiInputs: [{ name: 'id', type: 'string', required: true, description: '' }],
  endpointName: null,
  kbSources: [],
};
const workflow = (linked: string[] = []): WorkflowFields => ({
  title: 'Orders',
  triggerCondition: 'asks about an order',
  trainingPhrases: ['where is my order'],
  instructions: 'Ask for the number',
  linkedActions: linked,
});
const actionCreated: AutomationEvent = { type: 'ActionCreated', data: { ownerId: 'o1', actionId: 'act1', action } };
const workflowCreated: AutomationEvent = {
  type: 'WorkflowCreated',
  data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act1']) },
};

describe('an owner’s automation (decider)', () => {
  it('creates a workflow linking the owner’s action, and refuses a link to an action that does not exist', () => {
    spec
      .given([actionCreated])
      .when({
        type: 'SaveWorkflow',
        data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act1']), create: true },
      })
      .then([workflowCreated]);
    spec
      .given([])
      .when({
        type: 'SaveWorkflow',
        data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act9']), create: true },
      })
      .thenThrows(DomainError, 'Linked action act9 does not exist.');
  });

  it('records nothing for an update that changes nothing, and refuses updating what does not exist', () => {
    spec
      .given([actionCreated, workflowCreated])
      .when({
        type: 'SaveWorkflow',
        data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act1']), create: false },
      })
      .then([]);
    spec
      .given([])
      .when({ type: 'SaveWorkflow', data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(), create: false } })
      .thenThrows(DomainError, 'Workflow not found.');
    spec
      .given([])
      .when({ type: 'DeleteGuideline', data: { ownerId: 'o1', guidelineId: 'gl1' } })
      .thenThrows(DomainError, 'Guideline not found.');
  });

  it('deleting an action unlinks it from every workflow and guideline, in the same event', () => {
    const guideline: AutomationEvent = {
      type: 'GuidelineCreated',
      data: {
        ownerId: 'o1',
        guidelineId: 'gl1',
        guideline: { title: 'g', category: 'tone', instructions: 'x', linkedActions: ['act1'], active: true },
      },
    };
    spec
      .given([actionCreated, workflowCreated, guideline])
      .when({ type: 'DeleteAction', data: { ownerId: 'o1', actionId: 'act1' } })
      .then([{ type: 'ActionDeleted', data: { ownerId: 'o1', actionId: 'act1', unlinkedFrom: ['wf1', 'gl1'] } }]);
    const state = [
      actionCreated,
      workflowCreated,
      guideline,
      {
        type: 'ActionDeleted',
        data: { ownerId: 'o1', actionId: 'act1', unlinkedFrom: ['wf1', 'gl1'] },
      } as AutomationEvent,
    ].reduce(automationDecider.evolve, automationDecider.initialState());
    expect(state.workflows.get('wf1')?.linkedActions).toEqual([]);
    expect(state.guidelines.get('gl1')?.linkedActions).toEqual([]);
  });

  it('is one owner’s: another owner’s command on the stream is refused', () => {
    spec
      .given([actionCreated])
      .when({ type: 'DeleteAction', data: { ownerId: 'o2', actionId: 'act1' } })
      .thenThrows(DomainError);
  });

  it('keeps an assistant’s endpoints, records nothing when they are the same, and deletes only what exists', () => {
    const endpoints = [
      {
        name: 'shop',
        baseUrl: 'https://shop.example',
        authHeaderName: 'Authorization',
        authHeaderValueSealed: 'v1.x.y.z',
        timeoutMs: 5000,
      },
    ];
    const configured: AutomationEvent = {
      type: 'ExternalApiConfigured',
      data: { ownerId: 'o1', assistantId: 'a1', endpoints },
    };
    spec
      .given([])
      .when({ type: 'ConfigureExternalApi', data: { ownerId: 'o1', assistantId: 'a1', endpoints } })
      .then([configured]);
    spec
      .given([configured])
      .when({ type: 'ConfigureExternalApi', data: { ownerId: 'o1', assistantId: 'a1', endpoints } })
      .then([]);
    spec
      .given([])
      .when({ type: 'DeleteExternalApiConfig', data: { ownerId: 'o1', assistantId: 'a1' } })
      .thenThrows(DomainError, 'This assistant has no external API configuration.');
  });

  /**
   * The same rules for each kind of item, given/when/then per rule: a create delivered again records
   * nothing, the owner's limit refuses one more, an update needs the item and records only a change, a
   * delete needs the item.
   */
  const guideline: GuidelineFields = {
    title: 'Tone',
    category: 'tone',
    instructions: 'Be brief',
    linkedActions: [],
    active: true,
  };
  const kinds = [
    {
      kind: 'workflow',
      limit: automationLimits.workflowsPerOwner,
      limitText: M.workflowLimit(automationLimits.workflowsPerOwner),
      notFound: M.workflowNotFound,
      fields: workflow(),
      changed: { ...workflow(), title: 'Orders and returns' },
      created: (id: string, fields: unknown) =>
        ({ type: 'WorkflowCreated', data: { ownerId: 'o1', workflowId: id, workflow: fields } }) as AutomationEvent,
      updated: (id: string, fields: unknown) =>
        ({ type: 'WorkflowUpdated', data: { ownerId: 'o1', workflowId: id, workflow: fields } }) as AutomationEvent,
      deleted: (id: string) =>
        ({ type: 'WorkflowDeleted', data: { ownerId: 'o1', workflowId: id } }) as AutomationEvent,
      save: (id: string, fields: unknown, create: boolean) => ({
        type: 'SaveWorkflow' as const,
        data: { ownerId: 'o1', workflowId: id, workflow: fields as WorkflowFields, create },
      }),
      remove: (id: string) => ({ type: 'DeleteWorkflow' as const, data: { ownerId: 'o1', workflowId: id } }),
    },
    {
      kind: 'guideline',
      limit: automationLimits.guidelinesPerOwner,
      limitText: M.guidelineLimit(automationLimits.guidelinesPerOwner),
      notFound: M.guidelineNotFound,
      fields: guideline,
      changed: { ...guideline, instructions: 'Be brief and warm' },
      created: (id: string, fields: unknown) =>
        ({ type: 'GuidelineCreated', data: { ownerId: 'o1', guidelineId: id, guideline: fields } }) as AutomationEvent,
      updated: (id: string, fields: unknown) =>
        ({ type: 'GuidelineUpdated', data: { ownerId: 'o1', guidelineId: id, guideline: fields } }) as AutomationEvent,
      deleted: (id: string) =>
        ({ type: 'GuidelineDeleted', data: { ownerId: 'o1', guidelineId: id } }) as AutomationEvent,
      save: (id: string, fields: unknown, create: boolean) => ({
        type: 'SaveGuideline' as const,
        data: { ownerId: 'o1', guidelineId: id, guideline: fields as GuidelineFields, create },
      }),
      remove: (id: string) => ({ type: 'DeleteGuideline' as const, data: { ownerId: 'o1', guidelineId: id } }),
    },
    {
      kind: 'action',
      limit: automationLimits.actionsPerOwner,
      limitText: M.actionLimit(automationLimits.actionsPerOwner),
      notFound: M.actionNotFound,
      fields: action,
      changed: { ...action, title: 'Order tracking' },
      created: (id: string, fields: unknown) =>
        ({ type: 'ActionCreated', data: { ownerId: 'o1', actionId: id, action: fields } }) as AutomationEvent,
      updated: (id: string, fields: unknown) =>
        ({ type: 'ActionUpdated', data: { ownerId: 'o1', actionId: id, action: fields } }) as AutomationEvent,
      deleted: (id: string) =>
        ({ type: 'ActionDeleted', data: { ownerId: 'o1', actionId: id, unlinkedFrom: [] } }) as AutomationEvent,
      save: (id: string, fields: unknown, create: boolean) => ({
        type: 'SaveAction' as const,
        data: { ownerId: 'o1', actionId: id, action: fields as ActionFields, create },
      }),
      remove: (id: string) => ({ type: 'DeleteAction' as const, data: { ownerId: 'o1', actionId: id } }),
    },
  ];

  describe.each(kinds)('a $kind', (k) => {
    const one = k.created('x1', k.fields);

    it('given it exists, when a create of the same id comes again, then nothing is recorded, whatever it holds', () => {
      spec
        .given([one])
        .when(k.save('x1', k.fields, true))
        .then([]);
      // A create never overwrites: changing an item is an update.
      spec
        .given([one])
        .when(k.save('x1', k.changed, true))
        .then([]);
    });

    it('given the owner is at the limit, when one more is created, then it is refused with the limit', () => {
      const full = Array.from({ length: k.limit }, (_, i) => k.created(`x${i}`, k.fields));
      spec
        .given(full)
        .when(k.save('new', k.fields, true))
        .thenThrows(DomainError, k.limitText);
      spec
        .given(full.slice(1))
        .when(k.save('new', k.fields, true))
        .then([k.created('new', k.fields)]);
    });

    it('given it does not exist, when it is updated or deleted, then it is not found', () => {
      spec
        .given([])
        .when(k.save('x1', k.fields, false))
        .thenThrows(DomainError, k.notFound);
      spec.given([]).when(k.remove('x1')).thenThrows(DomainError, k.notFound);
    });

    it('given it exists, when it is saved unchanged, then nothing is recorded; changed, then the update is', () => {
      spec
        .given([one])
        .when(k.save('x1', k.fields, false))
        .then([]);
      spec
        .given([one])
        .when(k.save('x1', k.changed, false))
        .then([k.updated('x1', k.changed)]);
    });

    it('given it exists, when it is deleted, then the deletion is recorded', () => {
      spec
        .given([one])
        .when(k.remove('x1'))
        .then([k.deleted('x1')]);
    });
  });
});
