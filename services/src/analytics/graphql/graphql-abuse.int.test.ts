import { messages } from '@kesher/contracts';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { ALIASED_SCHEMAS, VARIANTS } from '../testing/graphql-attacks.js';
import { subscribeGraphql } from '../testing/graphql-ws-client.js';

const gate = await postgresAvailability();

type GraphqlAnswer = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

/**
 * The GraphQL endpoint against the whole backend on real Postgres, over a real socket (the server
 * listens on 127.0.0.1): strangers get nothing but 401, and signed-in owners cannot make it do
 * unbounded work — every abusive document is refused with a GraphQL error before it runs.
 */
describe.skipIf(!gate.available)(`GraphQL under attack${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let base: string;
  let owner: string;

  beforeAll(async () => {
    h = await createApiHarness();
    owner = (await h.owner()).authorization;
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => h?.close());

  async function post(
    authorization: string | null,
    body: string | ReadableStream<Uint8Array>,
    contentType = 'application/json',
  ) {
    const headers: Record<string, string> = {
      'content-type': contentType,
      ...(authorization ? { authorization } : {}),
    };
    const response = await fetch(`${base}/api/v1/graphql`, {
      method: 'POST',
      headers,
      body,
      ...(typeof body === 'string' ? {} : { duplex: 'half' }),
    } as RequestInit);
    const text = await response.text();
    return { status: response.status, bytes: text.length, body: JSON.parse(text) as GraphqlAnswer };
  }

  it('answers a caller without a valid token 401 with a GraphQL error, whatever it sends', async () => {
    const unauthenticated = {
      data: null,
      errors: [{ message: messages.authRequired, extensions: { code: 'UNAUTHENTICATED' } }],
    };
    for (const authorization of [null, 'Bearer not-a-real-token-at-all-0123456789']) {
      for (const body of [
        JSON.stringify({ query: ALIASED_SCHEMAS }),
        JSON.stringify({ query: '{ __typename }' }),
        JSON.stringify({ query: getIntrospectionQuery() }),
        ...Object.values(VARIANTS).map((v) => JSON.stringify(v.body)),
      ]) {
        const answer = await post(authorization, body);
        expect(answer.status, body.slice(0, 80)).toBe(401);
        expect(answer.body).toEqual(unauthenticated);
      }
      const raw = await post(authorization, '{ __schema { types { name } } }', 'application/graphql');
      expect(raw.status).toBe(401);
      const viaGet = await fetch(
        `${base}/api/v1/graphql?query=${encodeURIComponent('{ __schema { types { name } } }')}`,
        { headers: authorization ? { authorization } : {} },
      );
      expect(viaGet.status).toBe(401);
      expect(await viaGet.json()).toEqual(unauthenticated);
    }
  });

  it('refuses the 173 KB aliased __schema request from a signed-in owner as too large, with or without a length', async () => {
    const body = JSON.stringify({ query: ALIASED_SCHEMAS });
    expect(body.length).toBeGreaterThan(170_000);
    const sized = await post(owner, body);
    expect(sized.status).toBe(413);
    expect(sized.body).toEqual({
      data: null,
      errors: [
        {
          message: 'This request is too large: a GraphQL request may be at most 16 KB.',
          extensions: { code: 'REQUEST_TOO_LARGE' },
        },
      ],
    });

    // Sent in chunks without a content-length, it is cut off at the limit while it is read.
    const bytes = new TextEncoder().encode(body);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8192) controller.enqueue(bytes.subarray(at, at + 8192));
        controller.close();
      },
    });
    const streamed = await post(owner, chunked);
    expect(streamed.status).toBe(413);
    expect(streamed.body.data ?? null).toBeNull();
    expect(streamed.body.errors![0]!.message).toEqual(expect.any(String));
  });

  it.each(Object.entries(VARIANTS))(
    'refuses %s from a signed-in owner with a 400 GraphQL error',
    async (_name, { body, refusal }) => {
      const text = JSON.stringify(body);
      expect(text.length).toBeLessThanOrEqual(16 * 1024);
      const answer = await post(owner, text);
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(400);
      expect(answer.body.data ?? null).toBeNull();
      expect(answer.body.errors!.map((error) => error.message).join(' | ')).toMatch(refusal);
      expect(answer.bytes).toBeLessThan(2000);
    },
  );

  it('holds subscriptions over WebSocket to the same limits and rules', async () => {
    const url = `${base.replace('http', 'ws')}/api/v1/graphql`;
    const refusedWith = async (query: string) => {
      const live = await subscribeGraphql(url, owner, query);
      expect(live.ack.type).toBe('connection_ack');
      const answer = await live.next((m) => m.type === 'error' || m.type === 'next' || m.type === 'closed');
      live.close();
      expect(answer.type, JSON.stringify(answer)).toBe('error');
      return (answer.payload as { message: string }[]).map((error) => error.message).join(' | ');
    };
    expect(
      await refusedWith(
        `subscription { ${Array.from({ length: 40 }, (_, i) => `c${i}: live_counters { messages }`).join(' ')} }`,
      ),
    ).toContain('This query has 40 aliases; at most 30 are allowed.');
    expect(
      await refusedWith('subscription { live_counters { messages } } fragment F on LiveCounters { messages }'),
    ).toContain('Fragment "F" is never used.');
    expect(await refusedWith('subscription { live_counters { messages no_such_field } }')).toContain(
      'Cannot query field',
    );
    const fine = await subscribeGraphql(url, owner, 'subscription { live_counters { messages } }');
    expect((await fine.next((m) => m.type === 'error' || m.type === 'next')).type).toBe('next');
    fine.close();
  });

  it('still answers what the app, GraphiQL and the tests ask', async () => {
    const introspection = await post(owner, JSON.stringify({ query: getIntrospectionQuery() }));
    expect(introspection.status).toBe(200);
    expect(introspection.body.errors).toBeUndefined();
    const dashboard = await post(
      owner,
      JSON.stringify({
        query:
          '{ viewer { operator } d7: dashboard(days: 7) { period { days } } d30: dashboard(days: 30) { period { days } } }',
      }),
    );
    expect(dashboard.body).toEqual({
      data: { viewer: { operator: false }, d7: { period: { days: 7 } }, d30: { period: { days: 30 } } },
    });
    const named = await post(
      owner,
      JSON.stringify({ query: 'query A { health { status } } query B { viewer { operator } }', operationName: 'B' }),
    );
    expect(named.body).toEqual({ data: { viewer: { operator: false } } });
  });

  it('serves GraphiQL to no one but operators outside development (NODE_ENV=test here, unset on make start)', async () => {
    for (const path of ['/api/v1/graphiql', '/api/v1/graphiql/main.js', '/api/v1/graphiql/config.js']) {
      for (const authorization of [null, owner]) {
        const response = await fetch(`${base}${path}`, { headers: authorization ? { authorization } : {} });
        expect(response.status, `${path} ${authorization ? 'owner' : 'anonymous'}`).toBe(404);
        expect(await response.json()).toMatchObject({ detail: messages.notFound });
      }
    }
  });
});
