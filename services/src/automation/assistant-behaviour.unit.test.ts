import type { ActionFields, GuidelineFields, RecordedEvent, WorkflowFields } from '@kesher/contracts';
import type { AutomationQueries, Saved } from '@kesher/projections/automation/automation.queries';
import { describe, expect, it } from 'vitest';
import { createBehaviourLoader, restrictToSources, WORKFLOW_TURNS } from './assistant-behaviour.js';

const at = '2026-11-23T10:00:00.000Z';
const saved = <F>(id: string, fields: F): Saved<F> => ({ id, ownerId: 'o1', fields, createdAt: at, updatedAt: at });
const api = (title: string, endpointName: string | null = null): ActionFields => ({
  title,
  description: '',
  type: 'api',
  apiEndpoint: endpointName ? '/x' : 'https://shop.example/x',
  apiMethod: 'GET',
  apiHeaders: [],
  apiBodyTemplate: '',
  apiInputs: [],
  endpointName,
  kbSources: [],
});
const kb: ActionFields = {
  ...api('Docs'),
  type: 'knowledge_base',
  apiEndpoint: '',
  kbSources: [{ type: 'url', name: 'https://shop.example/returns', url: 'https://shop.example/returns' }],
};
const workflows = [
  saved<WorkflowFields>('wf-orders', {
    title: 'Orders',
    triggerCondition: 'order status',
    trainingPhrases: ['where is my order'],
    instructions: 'Ask for the number',
    linkedActions: ['act-lookup'],
  }),
  saved<WorkflowFields>('wf-returns', {
    title: 'Returns',
    triggerCondition: 'returns',
    trainingPhrases: ['return a product'],
    instructions: 'Explain returns',
    linkedActions: ['act-docs'],
  }),
];
const actions = [
  saved('act-lookup', api('Lookup')),
  saved('act-docs', kb),
  saved('act-crm', api('CRM', 'crm')),
  saved('act-other', api('Other')),
];
const guidelines = [
  saved<GuidelineFields>('gl-on', {
    title: 'Tone',
    category: 'tone',
    instructions: 'Be warm',
    linkedActions: ['act-other'],
    active: true,
  }),
  saved<GuidelineFields>('gl-off', {
    title: 'Off',
    category: 'format',
    instructions: 'End with "x"',
    linkedActions: [],
    active: false,
  }),
];
const queries = {
  workflows: async () => workflows,
  guidelines: async () => guidelines,
  actions: async () => actions,
  externalApi: async () => undefined,
  forRun: async () => ({ workflows, guidelines, actions, externalApi: undefined }),
} as unknown as AutomationQueries;

let position = 0;
const event = (type: string, data: Record<string, unknown>): RecordedEvent =>
  ({
    type,
    data,
    streamId: 'thread-t1',
    streamPosition: BigInt(position),
    globalPosition: BigInt(position++),
    metadata: { timestamp: at },
  }) as unknown as RecordedEvent;
const userSaid = (text: string) => event('MessagePosted', { role: 'user', text });
const fired = (workflowId: string) => event('WorkflowFired', { workflowId });

describe('the behaviour a run gets', () => {
  const load = createBehaviourLoader({ queries });
  const input = (question: string, threadEvents: RecordedEvent[] = []) => ({
    ownerId: 'o1',
    assistantId: 'a1',
    question,
    threadEvents,
  });

  it('has the active guidelines only, and the workflow the message fires with its actions first among the tools', async () => {
    const behaviour = await load(input('where is my order?'));
    expect(behaviour.guidelines.map((g) => g.title)).toEqual(['Tone']);
    expect(behaviour.workflow).toMatchObject({
      id: 'wf-orders',
      matchedOn: 'phrase',
      actions: [{ id: 'act-lookup', done: false }],
    });
    // An action calling an endpoint name the assistant has not configured is not offered.
    expect(behaviour.tools.map((t) => t.id)).toEqual(['act-lookup', 'act-other']);
    expect(behaviour.knowledgeSources).toBeNull();
  });

  it('keeps a fired workflow in force on later turns until its actions have run, and a few turns at most without actions', async () => {
    const history = [fired('wf-orders'), userSaid('where is my order?')];
    expect((await load(input('A-1234', [...history, userSaid('A-1234')]))).workflow).toMatchObject({
      id: 'wf-orders',
      matchedOn: 'continued',
    });
    const done = [...history, event('ActionCalled', { actionId: 'act-lookup', success: true })];
    expect((await load(input('thanks', done))).workflow).toBeNull();
    const failed = [...history, event('ActionCalled', { actionId: 'act-lookup', success: false })];
    expect((await load(input('and now?', failed))).workflow?.id).toBe('wf-orders');

    const noActions = [fired('wf-returns'), ...Array.from({ length: WORKFLOW_TURNS + 1 }, () => userSaid('hmm'))];
    expect((await load(input('ok', noActions))).workflow).toBeNull();
  });

  it('a knowledge-base action of the workflow restricts retrieval to its sources', async () => {
    const behaviour = await load(input('I want to return a product'));
    expect(behaviour.workflow?.id).toBe('wf-returns');
    expect(behaviour.knowledgeSources).toEqual(['https://shop.example/returns']);
    const passages = [
      { sourceUrl: 'https://shop.example/returns', text: 'a' },
      { sourceUrl: 'https://shop.example/returns/policy', text: 'b' },
      { sourceUrl: 'https://shop.example/returnsX', text: 'c' },
      { sourceUrl: null, text: 'd' },
    ];
    expect(restrictToSources(passages, behaviour.knowledgeSources!).map((p) => p.text)).toEqual(['a', 'b']);
  });
});
