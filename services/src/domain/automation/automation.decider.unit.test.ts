import type { ActionFields, WorkflowFields } from '@kesher/contracts';
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
const workflow = (linked: string[] = []): WorkflowFields => ({ title: 'Orders', triggerCondition: 'asks about an order', trainingPhrases: ['where is my order'], instructions: 'Ask for the number', linkedActions: linked });
const actionCreated: AutomationEvent = { type: 'ActionCreated', data: { ownerId: 'o1', actionId: 'act1', action } };
const workflowCreated: AutomationEvent = { type: 'WorkflowCreated', data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act1']) } };

describe('an owner’s automation (decider)', () => {
  it('creates a workflow linking the owner’s action, and refuses a link to an action that does not exist', () => {
    spec.given([actionCreated]).when({ type: 'SaveWorkflow', data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act1']), create: true } }).then([workflowCreated]);
    spec.given([]).when({ type: 'SaveWorkflow', data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act9']), create: true } }).thenThrows(DomainError, 'Linked action act9 does not exist.');
  });

  it('records nothing for an update that changes nothing, and refuses updating what does not exist', () => {
    spec.given([actionCreated, workflowCreated]).when({ type: 'SaveWorkflow', data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(['act1']), create: false } }).then([]);
    spec.given([]).when({ type: 'SaveWorkflow', data: { ownerId: 'o1', workflowId: 'wf1', workflow: workflow(), create: false } }).thenThrows(DomainError, 'Workflow not found.');
    spec.given([]).when({ type: 'DeleteGuideline', data: { ownerId: 'o1', guidelineId: 'gl1' } }).thenThrows(DomainError, 'Guideline not found.');
  });

  it('deleting an action unlinks it from every workflow and guideline, in the same event', () => {
    const guideline: AutomationEvent = { type: 'GuidelineCreated', data: { ownerId: 'o1', guidelineId: 'gl1', guideline: { title: 'g', category: 'tone', instructions: 'x', linkedActions: ['act1'], active: true } } };
    spec.given([actionCreated, workflowCreated, guideline]).when({ type: 'DeleteAction', data: { ownerId: 'o1', actionId: 'act1' } }).then([{ type: 'ActionDeleted', data: { ownerId: 'o1', actionId: 'act1', unlinkedFrom: ['wf1', 'gl1'] } }]);
    const state = [actionCreated, workflowCreated, guideline, { type: 'ActionDeleted', data: { ownerId: 'o1', actionId: 'act1', unlinkedFrom: ['wf1', 'gl1'] } } as AutomationEvent].reduce(automationDecider.evolve, automationDecider.initialState());
    expect(state.workflows.get('wf1')?.linkedActions).toEqual([]);
    expect(state.guidelines.get('gl1')?.linkedActions).toEqual([]);
  });

  it('is one owner’s: another owner’s command on the stream is refused', () => {
    spec.given([actionCreated]).when({ type: 'DeleteAction', data: { ownerId: 'o2', actionId: 'act1' } }).thenThrows(DomainError);
  });

  it('keeps an assistant’s endpoints, records nothing when they are the same, and deletes only what exists', () => {
    const endpoints = [{ name: 'shop', baseUrl: 'https://shop.example', authHeaderName: 'Authorization', authHeaderValueSealed: 'v1.x.y.z', timeoutMs: 5000 }];
    const configured: AutomationEvent = { type: 'ExternalApiConfigured', data: { ownerId: 'o1', assistantId: 'a1', endpoints } };
    spec.given([]).when({ type: 'ConfigureExternalApi', data: { ownerId: 'o1', assistantId: 'a1', endpoints } }).then([configured]);
    spec.given([configured]).when({ type: 'ConfigureExternalApi', data: { ownerId: 'o1', assistantId: 'a1', endpoints } }).then([]);
    spec.given([]).when({ type: 'DeleteExternalApiConfig', data: { ownerId: 'o1', assistantId: 'a1' } }).thenThrows(DomainError, 'This assistant has no external API configuration.');
  });
});
