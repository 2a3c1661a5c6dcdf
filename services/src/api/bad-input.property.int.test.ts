import { unsafeTextMessage } from '@kesher/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { postgresAvailability } from '../testing/test-database.js';

const gate = await postgresAvailability();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Every route of the facade; `:id`, `:fileId` and `:token` are filled with generated values. */
const routes: [Method, string][] = [
  ['POST', '/api/v1/auth/register'],
  ['POST', '/api/v1/auth/login'],
  ['POST', '/api/v1/auth/google'],
  ['POST', '/api/v1/auth/logout'],
  ['GET', '/api/v1/auth/me'],
  ['GET', '/api/v1/auth/config'],
  ['POST', '/api/v1/assistants/'],
  ['GET', '/api/v1/assistants/'],
  ['GET', '/api/v1/assistants/:id'],
  ['PUT', '/api/v1/assistants/:id'],
  ['DELETE', '/api/v1/assistants/:id'],
  ['POST', '/api/v1/assistants/:id/share'],
  ['POST', '/api/v1/assistants/:id/generate-share-token'],
  ['DELETE', '/api/v1/assistants/:id/share-token'],
  ['GET', '/api/v1/assistants/shared/:token'],
  ['POST', '/api/v1/assistants/:id/upload_file'],
  ['GET', '/api/v1/assistants/:id/files'],
  ['DELETE', '/api/v1/assistants/:id/files/:fileId'],
  ['GET', '/openai/file/:fileId/content'.replace('/openai', '/api/v1/openai')],
  ['GET', '/api/v1/health'],
  ['POST', '/api/v1/threads/'],
  ['POST', '/api/v1/threads/:threadId/messages'],
  ['GET', '/api/v1/threads/:threadId/messages'],
  ['POST', '/api/v1/threads/:threadId/runs'],
  ['GET', '/api/v1/threads/:threadId/runs/:runId'],
  ['PATCH', '/api/v1/threads/:threadId'],
  ['DELETE', '/api/v1/threads/:threadId'],
  ['GET', '/api/v1/assistants/:id/threads'],
  ['POST', '/api/v1/feedback'],
  ['POST', '/api/v1/threads/public'],
  ['POST', '/api/v1/threads/public/:threadId/messages'],
  ['GET', '/api/v1/threads/public/:threadId/messages'],
  ['POST', '/api/v1/threads/public/:threadId/runs'],
  ['POST', '/api/v1/feedback/public'],
  ['GET', '/api/v1/limits/usage'],
  ['POST', '/api/v1/web-crawler/'],
  ['GET', '/api/v1/web-crawler/assistant/:id'],
  ['GET', '/api/v1/web-crawler/user/all'],
  ['PUT', '/api/v1/web-crawler/:id'],
  ['DELETE', '/api/v1/web-crawler/:id'],
  ['POST', '/api/v1/web-crawler/:id/test'],
  ['POST', '/api/v1/web-crawler/commit-files'],
  ['POST', '/api/v1/web-crawler/smart-crawl-preview'],
  ['POST', '/api/v1/web-crawler/smart-crawl-commit'],
  ['POST', '/api/v1/web-crawler/fetch-single-url'],
  ['GET', '/api/v1/assistants/:id/crawler-pages'],
  ['GET', '/api/v1/crawler-settings/assistant/:id/urls'],
  ['GET', '/api/v1/crawler-settings/assistant/:id/stats'],
  ['PUT', '/api/v1/crawler-settings/url/:id'],
  ['POST', '/api/v1/crawler-settings/url/:id/toggle'],
  ['GET', '/api/v1/crawler-settings/url/:id/content'],
  ['DELETE', '/api/v1/crawler-settings/assistant/:id/urls'],
  ['GET', '/api/v1/ws/crawl-progress/:id'],
  ['GET', '/api/v1/workflows'],
  ['POST', '/api/v1/workflows'],
  ['PUT', '/api/v1/workflows/:id'],
  ['DELETE', '/api/v1/workflows/:id'],
  ['POST', '/api/v1/workflows/match'],
  ['GET', '/api/v1/workflows/overlaps'],
  ['GET', '/api/v1/workflows/stats'],
  ['GET', '/api/v1/guidelines'],
  ['POST', '/api/v1/guidelines'],
  ['PUT', '/api/v1/guidelines/:id'],
  ['DELETE', '/api/v1/guidelines/:id'],
  ['GET', '/api/v1/actions'],
  ['POST', '/api/v1/actions'],
  ['PUT', '/api/v1/actions/:id'],
  ['DELETE', '/api/v1/actions/:id'],
  ['POST', '/api/v1/actions/:id/test'],
  ['POST', '/api/v1/external-api/assistants/:id/config'],
  ['GET', '/api/v1/external-api/assistants/:id/config'],
  ['DELETE', '/api/v1/external-api/assistants/:id/config'],
  ['GET', '/api/v1/external-api/assistants/:id/test-connection'],
  ['GET', '/api/v1/automation/configuration'],
  ['GET', '/api/v1/automation/conversations/:threadId'],
  ['GET', '/api/v1/subscriptions/plans'],
  ['GET', '/api/v1/subscriptions/status'],
  ['POST', '/api/v1/subscriptions/checkout'],
  ['POST', '/api/v1/subscriptions/billing-portal'],
  ['POST', '/api/v1/subscriptions/cancel'],
  ['GET', '/api/v1/subscriptions/payment-history'],
  ['GET', '/api/v1/subscriptions/usage'],
  ['POST', '/api/v1/subscriptions/tranzila-mock'],
  ['GET', '/api/v1/subscriptions/receipts/:id'],
  ['POST', '/api/v1/subscriptions/webhook'],
];

/** Characters Postgres cannot store: NUL, and UTF-16 surrogates without their other half. */
const unstorable = fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF');
const withUnstorable = fc.tuple(fc.string({ maxLength: 20 }), unstorable, fc.string({ maxLength: 20 })).map(([a, bad, b]) => a + bad + b);

const segment = fc.oneof(
  fc.string({ maxLength: 40 }),
  withUnstorable,
  fc.integer().map(String),
  fc.constantFrom('0', '-1', '1e9', '99999999999999999999', 'NaN', '%00', '..', '%2e%2e', "1' OR '1'='1", '<script>', '1.5', ' '),
);
const body = fc.oneof(
  fc.jsonValue(),
  fc.record({
    name: fc.oneof(fc.string(), fc.integer(), fc.constant(null), withUnstorable),
    description: fc.oneof(fc.string(), fc.array(fc.string()), withUnstorable),
    content: fc.oneof(fc.string(), withUnstorable),
    title: fc.oneof(fc.string(), withUnstorable),
    display_name: fc.oneof(fc.string(), withUnstorable),
    session_token: fc.oneof(fc.string(), fc.constant('s'.repeat(64)), withUnstorable),
    instructions: fc.anything(),
    email: fc.oneof(fc.emailAddress(), fc.string()),
    password: fc.oneof(fc.string(), fc.constant('Str0ng-Passw0rd!')),
    chat_limit: fc.oneof(fc.integer(), fc.double(), fc.string()),
    web_crawler: fc.anything(),
    sales_mode: fc.anything(),
    payment_processing: fc.anything(),
  }, { requiredKeys: [] }),
);
/**
 * A path segment as a client would send it. A lone surrogate has no UTF-8 form: it goes as the bytes a
 * careless encoder would write (CESU-8), which no decoder accepts.
 */
const encodePath = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80`;
  }
};
const contentType = fc.constantFrom(undefined, 'application/json', 'text/plain', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16');
const authorization = fc.oneof(fc.constant(undefined), fc.constant('VALID'), fc.string().map((s) => `Bearer ${s}`), fc.string());

describe.skipIf(!gate.available)(`bad input at every route never yields a 5xx or a partial write${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let validAuthorization: string;
  /** Real things the targeted property writes to, so that the unstorable character is the request's only fault. */
  let target: { assistantId: number; externalId: string; shareToken: string; threadId: string; messageId: string; publicThreadId: string; sessionToken: string };
  beforeAll(async () => {
    h = await createApiHarness();
    validAuthorization = (await h.owner()).authorization;
    const headers = { authorization: validAuthorization };
    const created = (
      await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers, payload: { name: 'Target', description: 'd', instructions: 'i' } })
    ).json();
    const assistantId = created.assistant_id as number;
    const shareToken = (await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${assistantId}/generate-share-token`, headers })).json().share_token;
    const threadId = (await h.app.inject({ method: 'POST', url: '/api/v1/threads/', headers, payload: { assistant_id: assistantId } })).json().thread_id;
    const messageId = (await h.app.inject({ method: 'POST', url: `/api/v1/threads/${threadId}/messages`, headers, payload: { content: 'Hello' } })).json().id;
    const sessionToken = 'a'.repeat(64);
    const publicThreadId = (
      await h.app.inject({ method: 'POST', url: '/api/v1/threads/public', payload: { assistant_id: assistantId, share_token: shareToken, session_token: sessionToken } })
    ).json().thread_id;
    target = { assistantId, externalId: created.openai_assistant_id, shareToken, threadId, messageId, publicThreadId, sessionToken };
    for (const [name, value] of Object.entries(target)) expect(value, name).toBeTruthy();
  });
  afterAll(async () => h?.close());

  const eventCount = async () => Number((await h.platform.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM events`)).rows[0]!.n);

  it('holds for generated requests', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        segment,
        segment,
        body,
        contentType,
        authorization,
        fc.boolean(),
        async ([method, template], id, fileId, payload, type, auth, raw) => {
          const url = template
            .replace(':id', encodePath(id))
            .replace(':fileId', encodePath(fileId))
            .replace(':token', encodePath(id))
            .replace(':threadId', encodePath(id))
            .replace(':runId', encodePath(fileId));
          const headers: Record<string, string> = {};
          if (type) headers['content-type'] = type;
          if (auth) headers.authorization = auth === 'VALID' ? validAuthorization : auth;
          const before = await eventCount();
          const response = await h.app.inject({
            method,
            url,
            headers,
            ...(method === 'GET' ? {} : { payload: raw ? String(JSON.stringify(payload)).slice(0, -1) : JSON.stringify(payload ?? null) }),
          });
          seen.add(response.statusCode);
          expect(response.statusCode, `${method} ${url} → ${response.body}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(await eventCount(), `${method} ${url} wrote events but answered ${response.statusCode}`).toBe(before);
            expect(response.json()).toHaveProperty('detail');
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
    );
    // The generator must reach past validation into the handlers, not only bounce off the first check.
    console.log(`statuses seen: ${[...seen].sort().join(', ')}`);
    expect([...seen].filter((status) => status < 300).length).toBeGreaterThan(0);
    expect([...seen].filter((status) => status >= 400).length).toBeGreaterThanOrEqual(4);
  });

  it('answers 422 naming the field for a NUL or an unpaired surrogate in any text of any route', async () => {
    type Request = { method: Method; url: string; payload?: Record<string, unknown>; query?: Record<string, string>; auth?: boolean };
    const t = target;
    const feedback = { assistant_id: t.assistantId, thread_id: t.threadId, message_id: t.messageId, rating: 'like', comment: 'Helpful' };
    const requests: Request[] = [
      { method: 'POST', url: '/api/v1/auth/register', payload: { email: 'new-owner@example.com', password: 'Str0ng-Passw0rd!', display_name: 'Dana' } },
      { method: 'POST', url: '/api/v1/auth/login', payload: { email: 'someone@example.com', password: 'Str0ng-Passw0rd!' } },
      { method: 'POST', url: '/api/v1/auth/google', payload: { id_token: 'x'.repeat(40) } },
      {
        method: 'POST',
        url: '/api/v1/assistants/',
        auth: true,
        payload: { name: 'Second', description: 'A description', instructions: 'Be kind', website_url: 'https://example.com', sales_mode: { enabled: false, sales_prompt: 'Sell' } },
      },
      {
        method: 'PUT',
        url: `/api/v1/assistants/${t.assistantId}`,
        auth: true,
        payload: { name: 'Renamed', description: 'New description', instructions: 'New instructions', payment_processing: { enabled: false, sales_prompt: 'Pay' } },
      },
      { method: 'POST', url: `/api/v1/threads/${t.threadId}/messages`, auth: true, payload: { content: 'What are your hours?' } },
      { method: 'POST', url: `/api/v1/threads/${t.threadId}/runs`, auth: true, payload: { assistant_id: t.externalId } },
      { method: 'PATCH', url: `/api/v1/threads/${t.threadId}`, auth: true, payload: { title: 'Opening hours' } },
      { method: 'POST', url: '/api/v1/feedback', auth: true, payload: feedback },
      { method: 'POST', url: '/api/v1/threads/public', payload: { assistant_id: t.assistantId, share_token: t.shareToken, session_token: t.sessionToken } },
      { method: 'POST', url: `/api/v1/threads/public/${t.publicThreadId}/messages`, payload: { content: 'Do you deliver?', session_token: t.sessionToken } },
      { method: 'POST', url: `/api/v1/threads/public/${t.publicThreadId}/runs`, payload: { assistant_id: t.externalId, session_token: t.sessionToken } },
      { method: 'POST', url: '/api/v1/feedback/public', payload: { ...feedback, thread_id: t.publicThreadId, session_token: t.sessionToken } },
      { method: 'GET', url: `/api/v1/threads/public/${t.publicThreadId}/messages`, query: { session_token: t.sessionToken } },
    ];
    /** Every string in the request, by where it sits: [part, ...path]. */
    const textsOf = (request: Request) => {
      const found: (string | number)[][] = [];
      const walk = (value: unknown, path: (string | number)[]) => {
        if (typeof value === 'string') found.push(path);
        else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
      };
      walk(request.payload, ['body']);
      walk(request.query, ['querystring']);
      return found;
    };
    const cases = requests.flatMap((request) => textsOf(request).map((path) => ({ request, path })));
    expect(cases.length).toBeGreaterThan(30);

    /** Sends `request` with `bad` put into the text at `path` (at `at`, modulo its length), and checks the answer. */
    async function refused({ request, path }: (typeof cases)[number], bad: string, at: number) {
      const parts = structuredClone({ body: request.payload, querystring: request.query }) as Record<string, unknown>;
      let holder = parts as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
      const leaf = path[path.length - 1]!;
      const text = holder[leaf] as string;
      const cut = at % (text.length + 1);
      holder[leaf] = text.slice(0, cut) + bad + text.slice(cut);
      const query = parts.querystring as Record<string, string> | undefined;
      const before = await eventCount();
      const response = await h.app.inject({
        method: request.method,
        url: request.url,
        ...(query ? { query } : {}),
        ...(parts.body ? { payload: parts.body as object } : {}),
        headers: request.auth ? { authorization: validAuthorization } : {},
      });
      const where = `${request.method} ${request.url} ${path.join('.')}`;
      expect(response.statusCode, `${where} → ${response.body}`).toBe(422);
      expect(response.json().detail, where).toEqual([{ loc: path, msg: unsafeTextMessage, type: 'invalid_text' }]);
      expect(await eventCount(), where).toBe(before);
    }

    // Every case once, then generated ones.
    for (const c of cases) await refused(c, '\u0000', 0);
    // A URL cannot carry a lone surrogate at all (it has no UTF-8 form): query strings get the NUL.
    const generated = fc
      .constantFrom(...cases)
      .chain((c) => fc.tuple(fc.constant(c), c.path[0] === 'querystring' ? fc.constant('\u0000') : unstorable, fc.nat()));
    await fc.assert(fc.asyncProperty(generated, ([c, bad, at]) => refused(c, bad, at)), { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) });
  });
});
