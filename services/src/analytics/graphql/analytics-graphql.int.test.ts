import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { subscribeGraphql as subscribe } from '../testing/graphql-ws-client.js';
import {
  ask,
  ownerThread,
  ownerWithAssistant,
  scriptedProvider,
  settled,
  type ScenarioOwner,
} from '../testing/analytics-scenario.js';

const gate = await postgresAvailability();
const OPERATOR = 'operator@kesher.example';

const DASHBOARD = `query Dashboard($owner: ID) { dashboard(days: 7, owner_id: $owner) { period { days } overview { total_conversations total_queries } feedback { total } trends { daily_queries { date queries } } } }`;

describe.skipIf(!gate.available)(`analytics over GraphQL${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let dana: ScenarioOwner;
  let noa: ScenarioOwner;
  let operator: { authorization: string; accountId: string };
  let base: string;

  const graphql = async (authorization: string | null, query: string, variables: Record<string, unknown> = {}) => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/v1/graphql',
      headers: authorization ? { authorization } : {},
      payload: { query, variables },
    });
    return {
      status: response.statusCode,
      body: response.json() as {
        data?: Record<string, any> | null;
        errors?: { message: string; extensions?: { code?: string } }[];
      },
    };
  };

  beforeAll(async () => {
    h = await createApiHarness({
      answerProvider: scriptedProvider,
      env: { OPERATOR_EMAILS: ` ${OPERATOR.toUpperCase()} , someone@else.example` },
    });
    dana = await ownerWithAssistant(h);
    noa = await ownerWithAssistant(h);
    // Listed in OPERATOR_EMAILS and verified: a listed address counts only once proven (analytics/operators.ts).
    operator = await h.owner(OPERATOR, { verified: true });
    await ask(h, dana, await ownerThread(h, dana), 'Do you bake sourdough?');
    const noaThread = await ownerThread(h, noa);
    await ask(h, noa, noaThread, 'Gift cards?');
    await ask(h, noa, noaThread, 'Vouchers?');
    await settled(h);
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('http', 'ws');
  });
  afterAll(async () => h?.close());

  it("answers the signed-in owner's own figures, the same as the REST call", async () => {
    const { status, body } = await graphql(dana.authorization, DASHBOARD);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data!.dashboard.overview).toEqual({ total_conversations: 1, total_queries: 1 });
    const rest = (
      await h.app.inject({ url: '/api/v1/analytics/dashboard', headers: { authorization: dana.authorization } })
    ).json();
    expect(body.data!.dashboard.trends.daily_queries).toEqual(rest.data.trends.daily_queries);
    const viewer = await graphql(dana.authorization, '{ viewer { account_id operator } }');
    expect(viewer.body.data!.viewer).toEqual({ account_id: dana.accountId, operator: false });
  });

  it("isolates owners: another owner's id is refused, a foreign assistant is not found", async () => {
    const foreign = await graphql(dana.authorization, DASHBOARD, { owner: noa.accountId });
    expect(foreign.body.data).toBeNull();
    expect(foreign.body.errors![0]).toMatchObject({
      message: "Access denied. You don't have permission to perform this action.",
      extensions: { code: 'FORBIDDEN' },
    });
    const own = await graphql(dana.authorization, DASHBOARD, { owner: dana.accountId });
    expect(own.body.data!.dashboard.overview.total_queries).toBe(1);
    const performance = await graphql(
      dana.authorization,
      `{ assistant_performance(assistant_id: ${noa.assistantId}) { queries } }`,
    );
    expect(performance.body.errors![0]).toMatchObject({
      message: 'Assistant not found. Please check if the assistant still exists.',
      extensions: { code: 'NOT_FOUND' },
    });
    const queries = await graphql(dana.authorization, '{ queries(limit: 10) { queries { query } } }');
    expect(queries.body.data!.queries.queries).toEqual([{ query: 'Do you bake sourdough?' }]);
    const anonymous = await graphql(null, DASHBOARD);
    expect(anonymous.body.errors![0]).toMatchObject({
      message: 'Authentication required. Please log in again.',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('lets an operator (OPERATOR_EMAILS) read every owner, or one', async () => {
    expect((await graphql(operator.authorization, '{ viewer { operator } }')).body.data!.viewer.operator).toBe(true);
    const all = await graphql(operator.authorization, DASHBOARD);
    expect(all.body.data!.dashboard.overview).toEqual({ total_conversations: 2, total_queries: 3 });
    const one = await graphql(operator.authorization, DASHBOARD, { owner: noa.accountId });
    expect(one.body.data!.dashboard.overview).toEqual({ total_conversations: 1, total_queries: 2 });
    const limits = await graphql(
      operator.authorization,
      `{ limits_status(owner_id: "${noa.accountId}") { limits_summary { chat { total_messages { used } } } } }`,
    );
    expect(limits.body.data!.limits_status.limits_summary.chat.total_messages.used).toBe(2);
    // GraphiQL (an operator surface) for the operator's token only, as NODE_ENV=test is not development.
    expect(
      (await h.app.inject({ url: '/api/v1/graphiql', headers: { authorization: operator.authorization } })).statusCode,
    ).toBe(200);
    expect(
      (await h.app.inject({ url: '/api/v1/graphiql', headers: { authorization: dana.authorization } })).statusCode,
    ).toBe(404);
  });

  it('refuses too deep and too costly queries, and takes the standard introspection query', async () => {
    const introspection = await graphql(dana.authorization, getIntrospectionQuery());
    expect(introspection.body.errors).toBeUndefined();
    expect(introspection.body.data!.__schema.queryType.name).toBe('Query');

    let recursive = 'name';
    for (let level = 0; level < 12; level++) recursive = `fields { type { ${recursive} } }`;
    const deep = await graphql(dana.authorization, `{ __type(name: "Dashboard") { ${recursive} } }`);
    expect(deep.body.data ?? null).toBeNull();
    expect(deep.body.errors![0]!.message).toMatch(
      /^This introspection query is too deep \(\d+ levels; at most 16\)\.$/,
    );

    const aliases = Array.from({ length: 20 }, (_, i) => `d${i}: dashboard { period { days } }`).join(' ');
    const costly = await graphql(dana.authorization, `{ ${aliases} }`);
    expect(costly.body.errors![0]!.message).toMatch(/^This query is too complex \(cost \d+ over the limit of 400\)/);
    expect((await graphql(dana.authorization, '{ __typename health { status } }')).body.data!.health.status).toBe(
      'healthy',
    );
  });

  it('refuses arguments outside the REST ranges with their texts', async () => {
    const bad = await graphql(dana.authorization, '{ dashboard(days: 0) { period { days } } }');
    expect(bad.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(bad.body.errors![0]!.message).toMatch(/^days: /);
  });

  it('sends live counters over WebSocket: at once, then after a real chat message through the API', async () => {
    const live = await subscribe(
      `${base}/api/v1/graphql`,
      dana.authorization,
      'subscription { live_counters { owner_id conversations messages feedback } }',
    );
    expect(live.ack.type).toBe('connection_ack');
    const first = await live.next((m) => m.type === 'next');
    expect(first.payload!.data!.live_counters).toEqual({
      owner_id: dana.accountId,
      conversations: 1,
      messages: 2,
      feedback: 0,
    });

    const posted = await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${await ownerThread(h, dana)}/messages`,
      headers: { authorization: dana.authorization },
      payload: { content: 'A live question' },
    });
    expect(posted.statusCode).toBe(201);
    const update = await live.next(
      (m) =>
        m.type === 'next' &&
        (m.payload as { data: { live_counters: { messages: number } } }).data.live_counters.messages === 3,
    );
    expect(update.payload!.data!.live_counters).toEqual({
      owner_id: dana.accountId,
      conversations: 2,
      messages: 3,
      feedback: 0,
    });
    live.close();
  });

  it("refuses a subscription without a valid token, and to another owner's counters", async () => {
    const anonymous = await subscribe(`${base}/api/v1/graphql`, null, 'subscription { live_counters { messages } }');
    expect(anonymous.ack.type).not.toBe('connection_ack');
    const forged = await subscribe(
      `${base}/api/v1/graphql`,
      'Bearer not-a-real-token-at-all-0123456789',
      'subscription { live_counters { messages } }',
    );
    expect(forged.ack.type).not.toBe('connection_ack');
    const foreign = await subscribe(
      `${base}/api/v1/graphql`,
      dana.authorization,
      `subscription { live_counters(owner_id: "${noa.accountId}") { messages } }`,
    );
    const refused = await foreign.next((m) => m.type === 'error' || m.type === 'next');
    expect(refused.type).toBe('error');
    expect(JSON.stringify(refused.payload)).toContain('Access denied');
    foreign.close();
  });

  it('ends a subscription when its session signs out (closed with 4401), leaving the same owner’s other sessions live', async () => {
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: dana.email, password: 'Str0ng-Passw0rd!' },
    });
    expect(login.statusCode).toBe(200);
    const other = `Bearer ${(login.json() as { access_token: string }).access_token}`;
    const query = 'subscription { live_counters { messages } }';
    const signingOut = await subscribe(`${base}/api/v1/graphql`, dana.authorization, query);
    const staying = await subscribe(`${base}/api/v1/graphql`, other, query);
    const messages = (m: { payload?: any }) => m.payload.data.live_counters.messages as number;
    const before = messages(await signingOut.next((m) => m.type === 'next'));
    await staying.next((m) => m.type === 'next');

    const out = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: dana.authorization },
    });
    expect(out.statusCode).toBe(200);
    expect(await signingOut.next(() => false)).toEqual({
      type: 'closed',
      payload: { code: 4401, reason: 'Signed out' },
    });
    // The signed-out token cannot subscribe again.
    const again = await subscribe(`${base}/api/v1/graphql`, dana.authorization, query);
    expect(again.ack.type).not.toBe('connection_ack');

    // The other session still gets the owner's live counters.
    const posted = await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${await ownerThread(h, { ...dana, authorization: other, auth: { authorization: other } })}/messages`,
      headers: { authorization: other },
      payload: { content: 'Still there?' },
    });
    expect(posted.statusCode).toBe(201);
    const update = await staying.next((m) => m.type === 'closed' || (m.type === 'next' && messages(m) > before));
    expect(update.type).toBe('next');
    staying.close();
  });
});
