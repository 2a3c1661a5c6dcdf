import type {
  ActionDto,
  ConversationAutomationDto,
  GuidelineDto,
  WorkflowDto,
  WorkflowStatsDto,
} from '@kesher/contracts';
import { vi } from 'vitest';

/**
 * The component tests' stand-in for /api/v1/{workflows,guidelines,actions}: keeps the lists in memory,
 * answers as the API's shapes do, records every request with its body, and can be told to fail a call.
 */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const stamp = { created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:00Z' };

export const workflow = (over: Partial<WorkflowDto> = {}): WorkflowDto => ({
  id: 'wf_1',
  title: 'Book a table',
  trigger_condition: 'The customer wants to book a table',
  training_phrases: [
    'book a table',
    'reserve a table for two',
    'table tonight',
    'can I book for friday',
    'reservation please',
  ],
  instructions: 'Ask for the date, the time and the number of guests.',
  linked_actions: [],
  ...stamp,
  ...over,
});
export const guideline = (over: Partial<GuidelineDto> = {}): GuidelineDto => ({
  id: 'gl_1',
  title: 'Friendly tone',
  category: 'tone',
  instructions: 'Use a warm, friendly tone.',
  linked_actions: [],
  active: true,
  ...stamp,
  ...over,
});
export const action = (over: Partial<ActionDto> = {}): ActionDto => ({
  id: 'act_1',
  title: 'Order status',
  description: 'Looks up an order',
  type: 'api',
  api_endpoint: 'https://shop.example.com/orders/{{order_id}}',
  api_method: 'GET',
  api_headers: [],
  api_body_template: '',
  api_inputs: [{ name: 'order_id', type: 'string', required: true, description: '' }],
  endpoint_name: null,
  kb_sources: [],
  ...stamp,
  ...over,
});

/**
 * GET /automation/conversations/{threadId} as the server answers it: in run_1 "Book a table" fired on two
 * phrases and its action ran; in run_2 it was still in force and the action failed; run_3 fired nothing.
 */
export const conversationAutomation = (over: Partial<ConversationAutomationDto> = {}): ConversationAutomationDto => {
  const {
    created_at: _c,
    updated_at: _u,
    ...then
  } = workflow({ instructions: 'Ask for the date and the number of guests.', linked_actions: ['act_1'] });
  return {
    thread_id: 'thread_1',
    firings: [
      {
        run_id: 'run_1',
        workflow_id: 'wf_1',
        title: 'Book a table',
        score: 0.874,
        matched_on: 'phrase',
        matched_phrases: ['book a table', 'table tonight'],
        fired_at: '2026-11-23T10:01:00Z',
      },
      {
        run_id: 'run_2',
        workflow_id: 'wf_1',
        title: 'Book a table',
        score: 0,
        matched_on: 'continued',
        matched_phrases: [],
        fired_at: '2026-11-23T10:02:00Z',
      },
    ],
    action_calls: [
      {
        call_id: 'call_1',
        run_id: 'run_1',
        action_id: 'act_1',
        title: 'Order status',
        success: true,
        status_code: 200,
        duration_ms: 123.4,
        error: null,
        called_at: '2026-11-23T10:01:01Z',
      },
      {
        call_id: 'call_2',
        run_id: 'run_2',
        action_id: 'act_1',
        title: 'Order status',
        success: false,
        status_code: 503,
        duration_ms: 80,
        error: 'The endpoint answered HTTP 503',
        called_at: '2026-11-23T10:02:01Z',
      },
    ],
    configuration: { at: '2026-11-23T10:03:00Z', workflows: [then], guidelines: [], actions: [] },
    ...over,
  };
};

/** GET /workflows/stats as the server answers it. */
export const workflowStats = (workflows: WorkflowStatsDto['workflows'], days = 30): WorkflowStatsDto => ({
  days,
  workflows,
  actions: [],
});

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
}
type Handler = (request: Recorded) => Response | undefined;

export function fakeAutomationApi(
  initial: { workflows?: WorkflowDto[]; guidelines?: GuidelineDto[]; actions?: ActionDto[] } = {},
) {
  const lists: Record<string, { id: string }[]> = {
    workflows: initial.workflows ?? [],
    guidelines: initial.guidelines ?? [],
    actions: initial.actions ?? [],
  };
  const requests: Recorded[] = [];
  const overrides: Handler[] = [];
  let next = 100;
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = url.replace(/^\/api\/v1/, '');
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : null;
    const request = { method, path, body };
    requests.push(request);
    for (const handler of overrides) {
      const answer = handler(request);
      if (answer) return answer;
    }
    const [, resource, id] = path.split('?')[0]!.split('/');
    const list = resource ? lists[resource] : undefined;
    if (!list) return json(404, { detail: 'Not Found' });
    if (method === 'GET' && !id) return json(200, list);
    if (method === 'POST' && !id) {
      const prefix = resource === 'workflows' ? 'wf' : resource === 'guidelines' ? 'gl' : 'act';
      const saved = { ...body, id: `${prefix}_${next++}`, ...stamp };
      list.push(saved);
      return json(201, saved);
    }
    const index = list.findIndex((item) => item.id === id);
    if (index === -1) return json(404, { detail: 'Not found.' });
    if (method === 'PUT') {
      list[index] = { ...list[index], ...body };
      return json(200, list[index]);
    }
    if (method === 'DELETE') {
      list.splice(index, 1);
      return json(200, { success: true, message: 'Deleted' });
    }
    return json(405, { detail: 'Method Not Allowed' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    lists,
    /** The first handler that answers wins; the in-memory store answers the rest. */
    on: (handler: Handler) => overrides.push(handler),
    sent: (method: string, path: string) =>
      requests.filter((r) => r.method === method && r.path === path).map((r) => r.body),
  };
}

export { json };

/** Types by pasting (typing key by key is slow on a loaded machine and proves nothing more here). */
export async function fill(element: HTMLElement, text: string) {
  const { default: userEvent } = await import('@testing-library/user-event');
  await userEvent.clear(element);
  await userEvent.click(element);
  await userEvent.paste(text);
}

/** The toasts said so far (the toast area itself is the app frame's). */
export const toasts = async () =>
  (await import('@/lib/toast-store')).toastStore.snapshot().map((toast) => toast.message);
