import { streamIds, type MessageDto } from '@kesher/contracts';
import { automationQueries } from '@kesher/projections/automation/automation.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../chat/openai.provider.js';
import { startTestServer, type TestServer } from '../outbound/testing/test-server.js';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../testing/openai-stand-in.js';
import { kafkaAvailability } from '../testing/kafka.js';
import { postgresAvailability } from '../testing/test-database.js';

const postgres = await postgresAvailability();
const kafka = postgres.available ? await kafkaAvailability() : postgres;
const within = { timeout: 60_000, interval: 30 };
const env = { OUTBOUND_ALLOWLIST: '127.0.0.1' };
const SECRET = 'Bearer shop-secret-9876';

/** The shop's order API: the secret is required; /orders/slow takes 600 ms. */
async function startShop(): Promise<TestServer> {
  return startTestServer((request, response) => {
    const json = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (request.headers.authorization !== SECRET) return json(401, { error: 'unauthorized' });
    const id = decodeURIComponent((request.url ?? '').split('/')[2] ?? '');
    const answer = () => json(200, { id, status: 'shipped', note: 'customer copy sent' });
    if ((request.url ?? '').includes('slow')) return void setTimeout(answer, 600);
    answer();
  });
}

type Owner = { authorization: string; accountId: string; assistant: number; externalId: string };

async function setUp(
  h: ApiHarness,
  shop: TestServer,
  path = '/orders/{{order_id}}',
): Promise<Owner & { actionId: string; guidelineIds: string[] }> {
  const owner = await h.owner();
  const auth = { authorization: owner.authorization };
  const created = (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/assistants/',
      headers: auth,
      payload: { name: 'Crumb', description: 'A bakery', instructions: 'Help visitors' },
    })
  ).json();
  const post = async (url: string, payload: unknown) => {
    const response = await h.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: auth,
      payload: payload as object,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const action = await post('/actions', {
    title: 'Order status',
    api_endpoint: shop.url(path),
    api_headers: [{ key: 'Authorization', value: SECRET }],
    api_inputs: [{ name: 'order_id', type: 'string', description: 'order number' }],
  });
  await post('/workflows', {
    title: 'Where is my order',
    trigger_condition: 'The visitor asks where their order is',
    training_phrases: ['where is my order', 'track my order', 'איפה ההזמנה שלי', 'מעקב הזמנה'],
    instructions: 'Ask: "Please share your order number."',
    linked_actions: [action.id],
  });
  const signOff = await post('/guidelines', {
    title: 'Sign-off',
    category: 'format',
    instructions: 'End every answer with "— The Crumb team"',
  });
  const phrase = await post('/guidelines', {
    title: 'Wording',
    category: 'phrase',
    instructions: 'Use "client" instead of "customer".',
  });
  return {
    ...owner,
    assistant: created.assistant_id,
    externalId: created.openai_assistant_id,
    actionId: action.id,
    guidelineIds: [signOff.id, phrase.id],
  };
}

async function ask(h: ApiHarness, owner: Owner, threadId: string | null, content: string, statuses?: string[]) {
  const auth = { authorization: owner.authorization };
  const thread =
    threadId ??
    ((
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: auth,
        payload: { assistant_id: owner.assistant },
      })
    ).json().thread_id as string);
  expect(
    (
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${thread}/messages`,
        headers: auth,
        payload: { content },
      })
    ).statusCode,
  ).toBe(201);
  const runId = (
    await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${thread}/runs`,
      headers: auth,
      payload: { assistant_id: owner.externalId },
    })
  ).json().run_id as string;
  await expect
    .poll(async () => {
      const status = (await h.app.inject({ url: `/api/v1/threads/${thread}/runs/${runId}`, headers: auth })).json()
        .status as string;
      if (statuses && statuses.at(-1) !== status) statuses.push(status);
      return status;
    }, within)
    .toBe('completed');
  const listed = (await h.app.inject({ url: `/api/v1/threads/${thread}/messages`, headers: auth })).json();
  const messages: MessageDto[] = Array.isArray(listed) ? listed : listed.data;
  const last = messages.filter((m) => m.role === 'assistant').at(-1)!;
  const text =
    typeof last.content === 'string' ? last.content : (last.content as { text: { value: string } }[])[0]!.text.value;
  return { threadId: thread, runId, text };
}

describe.skipIf(!postgres.available)(
  `automation in runs${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let shop: TestServer;
    beforeAll(async () => {
      shop = await startShop();
    });
    afterAll(async () => shop?.close());

    describe('with the built-in engine', () => {
      let h: ApiHarness;
      beforeAll(async () => {
        h = await createApiHarness({ env });
      }, 120_000);
      afterAll(async () => h?.close());

      it(
        'a workflow fires, asks for its input, runs its API action when the visitor gives it and quotes the result; guidelines shape every answer',
        { timeout: 120_000 },
        async () => {
          const owner = await setUp(h, shop);
          const first = await ask(h, owner, null, 'Hi, where is my order?');
          expect(first.text).toContain('Please share your order number.');
          expect(first.text).toContain('To continue with “Order status”, please send: order number.');
          expect(first.text.trimEnd().endsWith('— The Crumb team')).toBe(true);

          const second = await ask(h, owner, first.threadId, 'Sure: A-1234');
          expect(second.text).toContain('Order status:');
          expect(second.text).toContain('- id: A-1234');
          expect(second.text).toContain('- status: shipped');
          // The preferred phrase replaced the API's own word.
          expect(second.text).toContain('client copy sent');
          expect(second.text).not.toContain('customer');

          // Recorded: which workflow fired and why (phrase, then continued), and the action call.
          const queries = automationQueries(h.platform.sql);
          await expect
            .poll(async () => (await queries.firings(first.threadId)).map((f) => f.matchedOn), within)
            .toEqual(['phrase', 'continued']);
          const fired = (await queries.firings(first.threadId))[0]!;
          expect(fired.title).toBe('Where is my order');
          expect(fired.matchedPhrases[0]).toBe('where is my order');
          await expect
            .poll(
              async () => (await queries.actionCalls(first.threadId)).map((c) => [c.title, c.success, c.statusCode]),
              within,
            )
            .toEqual([['Order status', true, 200]]);
          const types = (await h.platform.eventStore.readStream(streamIds.thread(first.threadId))).map((e) => e.type);
          expect(types.filter((t) => ['WorkflowFired', 'RunActionsRequired', 'ActionCalled'].includes(t))).toEqual([
            'WorkflowFired',
            'WorkflowFired',
            'RunActionsRequired',
            'ActionCalled',
          ]);

          // Hebrew, and an inactive guideline does nothing.
          const toggled = await h.app.inject({
            method: 'PUT',
            url: `/api/v1/guidelines/${owner.guidelineIds[0]}`,
            headers: { authorization: owner.authorization },
            payload: { active: false },
          });
          expect(toggled.statusCode).toBe(200);
          const hebrew = await ask(h, owner, null, 'היי, איפה ההזמנה שלי?');
          expect(hebrew.text).toContain('כדי להמשיך עם "Order status", נא לשלוח: order number.');
          expect(hebrew.text).not.toContain('— The Crumb team');

          // The owner sees, per conversation, what fired and ran, and the configuration it was answered with
          // (the sign-off still active then, though it is off now).
          const auth = { authorization: owner.authorization };
          const seen = (
            await h.app.inject({ url: `/api/v1/automation/conversations/${first.threadId}`, headers: auth })
          ).json();
          expect(seen.firings.map((f: { matched_on: string }) => f.matched_on)).toEqual(['phrase', 'continued']);
          expect(seen.action_calls).toMatchObject([{ title: 'Order status', success: true, status_code: 200 }]);
          expect(seen.configuration.guidelines.find((g: { title: string }) => g.title === 'Sign-off').active).toBe(
            true,
          );
          expect(
            (await h.app.inject({ url: '/api/v1/automation/configuration', headers: auth }))
              .json()
              .guidelines.find((g: { title: string }) => g.title === 'Sign-off').active,
          ).toBe(false);
          await expect
            .poll(
              async () =>
                (await h.app.inject({ url: '/api/v1/workflows/stats?days=7', headers: auth })).json().workflows,
              within,
            )
            .toMatchObject([{ title: 'Where is my order', fired: 2, conversations: 2 }]);
          const stranger = await h.owner();
          expect(
            (
              await h.app.inject({
                url: `/api/v1/automation/conversations/${first.threadId}`,
                headers: { authorization: stranger.authorization },
              })
            ).statusCode,
          ).toBe(404);
          expect(
            (
              await h.app.inject({ url: '/api/v1/workflows/stats', headers: { authorization: stranger.authorization } })
            ).json().workflows,
          ).toEqual([]);
        },
      );

      it('an action that fails completes the run with an answer that says so', { timeout: 120_000 }, async () => {
        const owner = await setUp(h, shop);
        // The action now points at the cloud metadata address: the SSRF guard refuses it.
        const actions = (
          await h.app.inject({ url: '/api/v1/actions', headers: { authorization: owner.authorization } })
        ).json();
        const updated = await h.app.inject({
          method: 'PUT',
          url: `/api/v1/actions/${owner.actionId}`,
          headers: { authorization: owner.authorization },
          payload: { ...actions[0], api_endpoint: 'http://169.254.169.254/orders/{{order_id}}' },
        });
        expect(updated.statusCode, updated.body).toBe(200);
        const answer = await ask(h, owner, null, 'track my order A-77');
        expect(answer.text).toContain('I could not complete "Order status" right now: the action failed.');
        // The read model follows the log: wait for the call to be projected as a refused one.
        const queries = automationQueries(h.platform.sql);
        await expect
          .poll(() => queries.actionCalls(answer.threadId), within)
          .toMatchObject([{ success: false, error: expect.stringMatching(/^The address was refused: /) }]);
      });
    });

    describe.skipIf(!kafka.available)(
      `across processes on Kafka (API, projector and workers apart)${kafka.available ? '' : ` (not run: ${kafka.reason})`}`,
      () => {
        let h: ApiHarness;
        beforeAll(async () => {
          h = await createApiHarness({ env, bus: 'kafka', topology: 'split' });
        }, 180_000);
        afterAll(async () => h?.close());

        it(
          'the secret sealed by the API opens in the workers, and the action runs in the conversation',
          { timeout: 180_000 },
          async () => {
            const owner = await setUp(h, shop);
            const first = await ask(h, owner, null, 'where is my order? it is A-55');
            expect(first.text).toContain('- id: A-55');
            expect(first.text).toContain('- status: shipped');
          },
        );
      },
    );

    describe('with the OpenAI provider (a local stand-in speaking tool_calls)', () => {
      let h: ApiHarness;
      let openai: OpenAiStandIn;
      beforeAll(async () => {
        openai = await startOpenAiStandIn();
        h = await createApiHarness({
          env,
          answerProvider: createOpenAiProvider({
            apiKey: 'sk-test',
            baseURL: openai.baseURL,
            model: 'gpt-test',
            maxRetries: 0,
          }),
        });
      }, 120_000);
      afterAll(async () => {
        await h?.close();
        await openai?.close();
      });

      it(
        'offers the actions as tools, passes through requires_action while the worker calls the API, feeds the result back and completes',
        { timeout: 120_000 },
        async () => {
          const owner = await setUp(h, shop, '/orders/slow-{{order_id}}');
          const tool = `action_${owner.actionId}`.replace(/[^A-Za-z0-9_-]/g, '_');
          openai.script(
            { kind: 'tool_calls', calls: [{ id: 'call_1', name: tool, arguments: '{"order_id":"A-9"}' }] },
            {
              kind: 'stream',
              pieces: ['Your order ', 'has shipped.'],
              usage: { prompt_tokens: 50, completion_tokens: 5 },
            },
          );
          const statuses: string[] = [];
          const answer = await ask(h, owner, null, 'where is my order?', statuses);
          expect(answer.text).toBe('Your order has shipped.');
          expect(statuses).toContain('requires_action');

          const [first, second] = openai.requests.slice(-2);
          expect(first!.tools?.map((t) => t.function.name)).toEqual([tool]);
          expect(first!.tools?.[0]?.function.parameters).toMatchObject({
            properties: { order_id: { type: 'string' } },
            required: ['order_id'],
          });
          const system = first!.messages[0]!.content!;
          expect(system).toContain('GUIDELINES from the owner');
          expect(system).toContain('Formatting:\n- Sign-off: End every answer with "— The Crumb team"');
          expect(system).toContain('WORKFLOW "Where is my order" is active');
          const toolMessage = second!.messages.find((m) => m.role === 'tool')!;
          expect(toolMessage.tool_call_id).toBe('call_1');
          expect(JSON.parse(toolMessage.content!)).toMatchObject({
            ok: true,
            status: 200,
            response: { id: 'slow-A-9', status: 'shipped' },
          });
        },
      );

      it(
        'a tool call that fails is fed back as a failure and the run still completes with an answer saying the action failed',
        { timeout: 120_000 },
        async () => {
          const owner = await setUp(h, shop, '/orders/{{order_id}}');
          const actions = (
            await h.app.inject({ url: '/api/v1/actions', headers: { authorization: owner.authorization } })
          ).json();
          await h.app.inject({
            method: 'PUT',
            url: `/api/v1/actions/${owner.actionId}`,
            headers: { authorization: owner.authorization },
            payload: { ...actions[0], api_endpoint: 'http://10.0.0.5/orders/{{order_id}}' },
          });
          const tool = `action_${owner.actionId}`.replace(/[^A-Za-z0-9_-]/g, '_');
          // The model asks again and again, then says nothing: the rounds are bounded and the visitor is told.
          const ask4 = {
            kind: 'tool_calls' as const,
            calls: [{ id: 'call_x', name: tool, arguments: '{"order_id":"B-1"}' }],
          };
          openai.script(ask4, ask4, ask4, { kind: 'stream', pieces: [] });
          const answer = await ask(h, owner, null, 'track my order B-1');
          expect(answer.text).toBe('I could not complete "Order status" right now: the action failed.');
          const toolMessage = openai.requests
            .at(-1)!
            .messages.filter((m) => m.role === 'tool')
            .at(-1)!;
          expect(JSON.parse(toolMessage.content!)).toMatchObject({ ok: false });
          expect(JSON.parse(toolMessage.content!).error).toMatch(/^The address was refused: /);
          // After three rounds tools are no longer offered.
          expect(openai.requests.at(-1)!.tools).toBeUndefined();
        },
      );
    });
  },
);
