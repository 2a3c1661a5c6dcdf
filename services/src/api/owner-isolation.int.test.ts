import { randomUUID } from 'node:crypto';
import { plans, TEST_CARDS } from '@kesher/contracts';
import { allProjections } from '@kesher/projections/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChannelStandIns, type ChannelStandIns } from '../channels/testing/channel-stand-ins.js';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { collectRoutes } from '../testing/route-collector.js';
import { postgresAvailability } from '../testing/test-database.js';

const gate = await postgresAvailability();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Route = [Method, string];

/**
 * Routes whose whole point is to hand one owner's thing to whoever holds a capability that is not the
 * bearer token — a 2xx there with A's data is the product working, not a leak. Each says why.
 */
const publicByDesign: Record<string, string> = {
  // The share link: anyone holding the assistant's share token may open its public page (§ sharing).
  'GET /api/v1/assistants/shared/:token':
    'the share token is the capability; the visitor page shows the assistant by design',
};

const multipart = (filename: string, text: string) => {
  const boundary = `----kesher${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

describe.skipIf(!gate.available)(
  `owner B, with owner A's ids at every route, never sees or changes A's data${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;
    let routes: Route[];
    const mark = randomUUID().slice(0, 8);
    /** Texts only A's data holds: any of them in an answer to B is a leak. */
    const fingerprints = [
      `AlphaBakery${mark}`,
      `alpha-secret-instructions-${mark}`,
      `alphasecretmessage${mark}`,
      `alpha-file-${mark}`,
      `AlphaWorkflow${mark}`,
      `AlphaGuideline${mark}`,
      `AlphaAction${mark}`,
      `alpha_ep_${mark}`,
      `alpha_bot_${mark}`,
    ];
    let a: { authorization: string; accountId: string; email: string };
    let b: { authorization: string; accountId: string; email: string };
    let ids: {
      assistantId: number;
      externalId: string;
      fileId: string;
      threadId: string;
      messageId: string;
      runId: string;
      publicThreadId: string;
      shareToken: string;
      workflowId: string;
      guidelineId: string;
      actionId: string;
      integrationId: string;
      receiptUrl: string;
      checkout: Record<string, string>;
    };

    const call = (
      authorization: string | undefined,
      method: Method,
      url: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) =>
      h.app.inject({
        method,
        url,
        headers: { ...(authorization ? { authorization } : {}), ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const ok = async (response: Awaited<ReturnType<typeof call>>, what: string) => {
      expect(response.statusCode, `${what} → ${response.body}`).toBeLessThan(300);
      return response.json();
    };

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const collected = await collectRoutes(() =>
        createApiHarness({
          env: {
            TELEGRAM_API_URL: standIns.urls.telegram,
            WHATSAPP_API_URL: standIns.urls.whatsapp,
            INSTAGRAM_API_URL: standIns.urls.instagram,
            META_APP_SECRET: 'meta-app-secret-for-tests',
          },
        }),
      );
      h = collected.result;
      const methods: string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      routes = collected.routes
        .filter((r) => r.url.startsWith('/api/v1/') && methods.includes(r.method))
        .map((r) => [r.method as Method, r.url]);

      a = await h.owner();
      b = await h.owner();
      const as = a.authorization;
      // A pays for Pro on the test page (Telegram needs a paid plan).
      const checkoutUrl = new URL(
        (
          await ok(
            await call(as, 'POST', '/api/v1/subscriptions/checkout', { tier: 'pro', billing_period: 'monthly' }),
            'checkout',
          )
        ).url,
        'http://x',
      );
      const checkout = Object.fromEntries(checkoutUrl.searchParams) as Record<string, string>;
      const paid = await call(
        as,
        'POST',
        '/api/v1/subscriptions/tranzila-mock',
        new URLSearchParams({
          ...checkout,
          card_number: TEST_CARDS.success,
          card_holder: 'Alpha Owner',
          expiry: '12/29',
          cvv: '123',
        }).toString(),
        {
          'content-type': 'application/x-www-form-urlencoded',
        },
      );
      expect((await ok(paid, 'pay')).status).toBe('success');
      expect(TEST_CARDS.success).toBe('4580458045804580');
      const history = await ok(await call(as, 'GET', '/api/v1/subscriptions/payment-history'), 'history');
      expect(history[0].amount).toBe(plans.PRO.price_monthly);

      const assistant = await ok(
        await call(as, 'POST', '/api/v1/assistants/', {
          name: fingerprints[0],
          description: 'Alpha bakery',
          instructions: fingerprints[1],
        }),
        'assistant',
      );
      const assistantId = assistant.assistant_id as number;
      const upload = multipart(`${fingerprints[3]}.txt`, `Alpha facts ${mark}: the sourdough costs 24 shekels.\n`);
      const file = await ok(
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${assistantId}/upload_file`,
          headers: { authorization: as, ...upload.headers },
          payload: upload.payload,
        }),
        'upload',
      );
      const shareToken = (
        await ok(await call(as, 'POST', `/api/v1/assistants/${assistantId}/generate-share-token`), 'share')
      ).share_token;
      const threadId = (await ok(await call(as, 'POST', '/api/v1/threads/', { assistant_id: assistantId }), 'thread'))
        .thread_id;
      await ok(
        await call(as, 'PATCH', `/api/v1/threads/${threadId}`, { title: `Alpha thread ${fingerprints[2]}` }),
        'title',
      );
      const messageId = (
        await ok(
          await call(as, 'POST', `/api/v1/threads/${threadId}/messages`, { content: `Where is ${fingerprints[2]}?` }),
          'message',
        )
      ).id;
      const runId = (
        await ok(
          await call(as, 'POST', `/api/v1/threads/${threadId}/runs`, { assistant_id: assistant.openai_assistant_id }),
          'run',
        )
      ).id;
      const sessionToken = 'v'.repeat(64);
      const publicThreadId = (
        await ok(
          await call(undefined, 'POST', '/api/v1/threads/public', {
            assistant_id: assistantId,
            share_token: shareToken,
            session_token: sessionToken,
          }),
          'public thread',
        )
      ).thread_id;
      await ok(
        await call(undefined, 'POST', `/api/v1/threads/public/${publicThreadId}/messages`, {
          content: `Visitor asks about ${fingerprints[2]}`,
          session_token: sessionToken,
        }),
        'visitor message',
      );

      const actionId = (
        await ok(
          await call(as, 'POST', '/api/v1/actions', {
            title: fingerprints[6],
            api_endpoint: 'https://alpha.example.com/orders/{{order_id}}',
            api_inputs: [{ name: 'order_id', type: 'number' }],
          }),
          'action',
        )
      ).id;
      const workflowId = (
        await ok(
          await call(as, 'POST', '/api/v1/workflows', {
            title: fingerprints[4],
            trigger_condition: 'asks for the order',
            instructions: 'look it up',
            linked_actions: [actionId],
          }),
          'workflow',
        )
      ).id;
      const guidelineId = (
        await ok(
          await call(as, 'POST', '/api/v1/guidelines', {
            title: fingerprints[5],
            category: 'format',
            instructions: 'sign off',
          }),
          'guideline',
        )
      ).id;
      await ok(
        await call(as, 'POST', `/api/v1/external-api/assistants/${assistantId}/config`, {
          endpoints: [{ name: fingerprints[7], base_url: 'https://alpha.example.com/api' }],
        }),
        'external api',
      );

      const bot = standIns.addBot(fingerprints[8]!);
      await ok(
        await call(as, 'POST', `/api/v1/assistants/${assistantId}/telegram/setup`, { bot_token: bot.token }),
        'telegram',
      );
      const telegram = await ok(await call(as, 'GET', `/api/v1/assistants/${assistantId}/telegram`), 'telegram status');
      const integrationId = String(telegram.webhook_url).match(/channels\/telegram\/([^/]+)\/webhook/)?.[1];
      expect(integrationId, telegram.webhook_url).toBeTruthy();

      ids = {
        assistantId,
        externalId: assistant.openai_assistant_id,
        fileId: String(file.file_id ?? file.id ?? file.openai_file_id),
        threadId,
        messageId,
        runId,
        publicThreadId,
        shareToken,
        workflowId: String(workflowId),
        guidelineId: String(guidelineId),
        actionId: String(actionId),
        integrationId: integrationId!,
        receiptUrl: history[0].invoice_pdf,
        checkout,
      };
      for (const [name, value] of Object.entries(ids)) expect(value, name).toBeTruthy();
      expect(ids.fileId).not.toBe('undefined');
    }, 180_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    /** What A reads of A's things: it must be the same after B's sweep. */
    async function snapshotOfA() {
      const reads = [
        '/api/v1/assistants/',
        `/api/v1/assistants/${ids.assistantId}`,
        `/api/v1/assistants/${ids.assistantId}/files`,
        `/api/v1/assistants/${ids.assistantId}/threads`,
        `/api/v1/threads/${ids.threadId}/messages`,
        `/api/v1/threads/${ids.threadId}`,
        '/api/v1/workflows',
        '/api/v1/guidelines',
        '/api/v1/actions',
        `/api/v1/external-api/assistants/${ids.assistantId}/config`,
        `/api/v1/assistants/${ids.assistantId}/telegram`,
        '/api/v1/subscriptions/status',
        '/api/v1/subscriptions/payment-history',
        '/api/v1/inbox',
      ];
      const snapshot: Record<string, unknown> = {};
      for (const url of reads) {
        const response = await call(a.authorization, 'GET', url);
        snapshot[url] = { status: response.statusCode, body: response.json() };
      }
      return snapshot;
    }

    /** A's id for a path parameter, by the parameter's name (an `:id` may be any of A's numbered things). */
    const candidatesFor = (param: string): string[] => {
      switch (param) {
        case 'id':
          return [String(ids.assistantId), ids.workflowId, ids.guidelineId, ids.actionId];
        case 'threadId':
          return [ids.threadId, ids.publicThreadId];
        case 'runId':
          return [ids.runId];
        case 'fileId':
        case 'file':
          return [ids.fileId];
        case 'token':
          return [ids.shareToken];
        case 'integrationId':
          return [ids.integrationId];
        default:
          return [String(ids.assistantId), ids.threadId];
      }
    };
    /** Every way of filling a route's parameters with A's ids (the cross product is small: at most 4×2). */
    const fillings = (template: string): string[] => fillingsWithControls(template).map(([url]) => url);
    /** Each filling beside the same route filled with ids of the same shape that name nothing. */
    const fillingsWithControls = (template: string): [string, string][] => {
      let urls: [string, string][] = [[template, template]];
      for (const [, name] of template.matchAll(/:(\w+)/g))
        urls = urls.flatMap(([url, control]) =>
          candidatesFor(name!).map((value): [string, string] => [
            url.replace(`:${name}`, encodeURIComponent(value)),
            control.replace(`:${name}`, encodeURIComponent(nobodys(value))),
          ]),
        );
      return urls;
    };
    const bodies = () => [
      { assistant_id: ids.assistantId },
      {
        assistant_id: ids.assistantId,
        thread_id: ids.threadId,
        message_id: ids.messageId,
        file_id: ids.fileId,
        file_ids: [ids.fileId],
        linked_actions: [Number(ids.actionId)],
        rating: 'like',
        content: 'hello',
        title: 'b',
        name: 'b',
        description: 'd',
        instructions: 'i',
        trigger_condition: 'c',
        category: 'format',
        message: 'hello',
        query: 'hello',
      },
    ];
    const queryWithAIds = () => `assistant_id=${ids.assistantId}&thread_id=${ids.threadId}`;
    const queryWithNobodysIds = () =>
      `assistant_id=${nobodys(String(ids.assistantId))}&thread_id=${nobodys(ids.threadId)}`;
    /** An id of the same shape that names nothing: what B gets for it is what B may get for A's. */
    const nobodys = (value: string) =>
      /^\d+$/.test(value) ? '987654' : `${value.slice(0, -4)}${value.endsWith('0000') ? '1111' : '0000'}`;
    const allAIds = () => [
      String(ids.assistantId),
      ids.threadId,
      ids.publicThreadId,
      ids.messageId,
      ids.runId,
      ids.fileId,
      ids.shareToken,
      ids.workflowId,
      ids.guidelineId,
      ids.actionId,
      ids.integrationId,
    ];
    /** An answer with the ids (A's or nobody's), times and request ids blanked, to compare the two. */
    const normalized = (body: string) => {
      let text = body;
      // Whole tokens only: a small numeric id must not blank every digit of the answer.
      for (const id of allAIds()
        .flatMap((id) => [id, nobodys(id)])
        .sort((x, y) => y.length - x.length))
        text = text.replace(
          new RegExp(`(?<![\\w.-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g'),
          '<id>',
        );
      // The health report's log positions move between the two requests while the read models catch up.
      return text
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?/g, '<time>')
        .replace(/\b\d{13}\b/g, '<time>')
        .replace(/"\d+:\d+"/g, '"<position>"')
        .replace(/"behind_positions":\d+/g, '"behind_positions":<n>');
    };

    it(
      'answers B no 5xx and none of A’s data at any route, and A’s things stay as they were',
      { timeout: 300_000 },
      async () => {
        const before = await snapshotOfA();
        // The detector itself: the same requests from A do show A's data (else a leak could pass unseen).
        let shownToA = 0;
        for (const [, template] of routes.filter(([m]) => m === 'GET'))
          for (const url of fillings(template)) {
            const body = (await call(a.authorization, 'GET', `${url}?${queryWithAIds()}`)).body;
            if (fingerprints.some((text) => body.includes(text))) shownToA++;
          }
        expect(shownToA).toBeGreaterThan(8);
        const leaks: string[] = [];
        const failures: string[] = [];
        let requests = 0;
        // Signing out would end B's token halfway through; it is swept last, on its own (below).
        for (const [method, template] of routes.filter(([, url]) => url !== '/api/v1/auth/logout')) {
          const key = `${method} ${template}`;
          const withQuery = method === 'GET' || method === 'DELETE';
          const urls = fillingsWithControls(template).map(([url, control]): [string, string] =>
            withQuery ? [`${url}?${queryWithAIds()}`, `${control}?${queryWithNobodysIds()}`] : [url, control],
          );
          const payloads = withQuery ? [undefined] : bodies();
          for (const [url, other] of urls)
            for (const payload of payloads) {
              requests++;
              const response = await call(b.authorization, method, url, payload);
              const where = `${method} ${url} ${payload ? JSON.stringify(payload).slice(0, 80) : ''} → ${response.statusCode} ${response.body.slice(0, 300)}`;
              if (response.statusCode >= 500) failures.push(where);
              if (key in publicByDesign) continue;
              const seen = fingerprints.filter(
                (text) => response.body.includes(text) || JSON.stringify(response.headers).includes(text),
              );
              if (seen.length > 0) leaks.push(`${where} (shows ${seen.join(', ')})`);
              // A read that succeeds with A's ids must answer exactly what it answers for ids that name nothing
              // (a count, a total or a chart of A's is a leak even without A's texts in it).
              if (method === 'GET' && response.statusCode < 300) {
                const control = await call(b.authorization, method, other);
                if (
                  control.statusCode !== response.statusCode ||
                  normalized(control.body) !== normalized(response.body)
                )
                  leaks.push(`${where} differs from ${other} → ${control.statusCode} ${control.body.slice(0, 300)}`);
              }
            }
        }
        // Signing B out takes nothing of A's with it.
        expect((await call(b.authorization, 'POST', '/api/v1/auth/logout', bodies()[1])).statusCode).toBeLessThan(300);
        expect((await call(b.authorization, 'GET', '/api/v1/auth/me')).statusCode).toBe(401);
        console.log(`${routes.length} routes, ${requests} requests as owner B with owner A's ids`);
        expect(failures, failures.join('\n')).toEqual([]);
        expect(leaks, leaks.join('\n')).toEqual([]);
        // Any write B got through would show in A's reads once every read model has applied the log up to its
        // head now: wait for that position, not for a moment that a busy machine may not give them.
        const head = await h.platform.eventStore.headPosition();
        const readModels = allProjections.map((projection) => projection.name);
        expect(
          await h.platform.projector.progress.waitFor(readModels, head, 30_000),
          `read models at ${head.commit}:${head.prepare}`,
        ).toBe(true);
        expect(await snapshotOfA()).toEqual(before);
      },
    );

    /** The sweep ends by signing B out: a new session for what follows. */
    async function signInBAgain() {
      const login = await call(undefined, 'POST', '/api/v1/auth/login', {
        email: b.email,
        password: 'Str0ng-Passw0rd!',
      });
      expect(login.statusCode, login.body).toBe(200);
      b = { ...b, authorization: `Bearer ${login.json().access_token}` };
      expect((await call(b.authorization, 'GET', '/api/v1/auth/me')).statusCode).toBe(200);
    }

    it('GraphQL: every query field B may call with A’s assistant or account id answers what it answers for ids that name nothing', async () => {
      await signInBAgain();
      type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
      type Field = { name: string; args: { name: string; type: TypeRef }[]; type: TypeRef };
      const typeQuery = `{ __schema { queryType { name } types { name kind fields { name args { name type { kind name ofType { kind name ofType { kind name } } } } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`;
      const schema = await call(b.authorization, 'POST', '/api/v1/graphql', { query: typeQuery });
      expect(schema.statusCode, schema.body).toBe(200);
      const types = new Map<string, { kind: string; fields: Field[] | null }>(
        schema
          .json()
          .data.__schema.types.map((t: { name: string; kind: string; fields: Field[] | null }) => [t.name, t]),
      );
      const named = (ref: TypeRef): string => ref.name ?? named(ref.ofType!);
      const required = (ref: TypeRef) => ref.kind === 'NON_NULL';
      /** Every field without required arguments, objects to a small depth (the server's depth and cost rules apply). */
      const selection = (typeName: string, depth: number): string => {
        const type = types.get(typeName)!;
        if (!type.fields) return '';
        const parts = type.fields
          .filter((f) => !f.args.some((arg) => required(arg.type)))
          .map((f) => {
            const inner = types.get(named(f.type))!;
            if (!inner.fields) return f.name;
            return depth > 0 ? `${f.name} ${selection(named(f.type), depth - 1)}` : '';
          })
          .filter(Boolean);
        return parts.length ? `{ ${parts.join(' ')} }` : '{ __typename }';
      };
      const query = types.get(schema.json().data.__schema.queryType.name)!;
      const aValue: Record<string, string> = {
        assistant_id: String(ids.assistantId),
        owner_id: JSON.stringify(a.accountId),
      };
      const nobodyValue: Record<string, string> = { assistant_id: '987654', owner_id: JSON.stringify(randomUUID()) };
      let probed = 0;
      /** Probes that A's own session runs to the end (not refused by validation, depth or cost): the comparison means something. */
      let answered = 0;
      const leaks: string[] = [];
      for (const field of query.fields!) {
        const idArgs = field.args.filter((arg) => arg.name in aValue);
        if (idArgs.length === 0) continue;
        for (const arg of idArgs) {
          const build = (values: Record<string, string>) => {
            const args = field.args
              .filter((x) => x.name === arg.name || (required(x.type) && x.name in values))
              .map((x) => `${x.name}: ${values[x.name]}`);
            return `{ ${field.name}(${args.join(', ')}) ${selection(named(field.type), 2)} }`;
          };
          const asA = await call(b.authorization, 'POST', '/api/v1/graphql', { query: build(aValue) });
          const asNobody = await call(b.authorization, 'POST', '/api/v1/graphql', { query: build(nobodyValue) });
          probed++;
          // The same query from A itself runs to the end: it is well-formed, and A's data is there to leak.
          const byA = await call(a.authorization, 'POST', '/api/v1/graphql', { query: build(aValue) });
          if (byA.statusCode === 200 && !byA.json().errors) answered++;
          expect(asA.statusCode, `${field.name}(${arg.name}) → ${asA.body}`).toBeLessThan(500);
          const clean = (body: string) =>
            normalized(body)
              .split(a.accountId)
              .join('<id>')
              .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');
          if (
            fingerprints.some((text) => asA.body.includes(text)) ||
            asA.statusCode !== asNobody.statusCode ||
            clean(asA.body) !== clean(asNobody.body)
          )
            leaks.push(
              `${field.name}(${arg.name}: A's) → ${asA.statusCode} ${asA.body.slice(0, 400)}\n   vs nobody's → ${asNobody.statusCode} ${asNobody.body.slice(0, 400)}`,
            );
        }
      }
      console.log(`GraphQL: ${probed} probes with A's ids, ${answered} of them answered with data when A asks`);
      expect(probed).toBeGreaterThanOrEqual(5);
      expect(answered).toBeGreaterThanOrEqual(5);
      expect(leaks, leaks.join('\n')).toEqual([]);
    });

    it('B with no sign-in, or a made-up one, gets A’s data at no route', { timeout: 300_000 }, async () => {
      const leaks: string[] = [];
      for (const authorization of [undefined, 'Bearer not-a-token']) {
        for (const [method, template] of routes) {
          if (`${method} ${template}` in publicByDesign) continue;
          for (const url of fillings(template)) {
            const response = await call(
              authorization,
              method,
              url,
              method === 'GET' || method === 'DELETE' ? undefined : bodies()[1],
            );
            expect(response.statusCode, `${method} ${url} → ${response.body}`).toBeLessThan(500);
            const seen = fingerprints.filter((text) => response.body.includes(text));
            if (seen.length > 0)
              leaks.push(
                `${method} ${url} (${authorization ?? 'no sign-in'}) → ${response.statusCode} shows ${seen.join(', ')}`,
              );
          }
        }
      }
      expect(leaks, leaks.join('\n')).toEqual([]);
    });

    it('B cannot pay A’s checkout nor open A’s receipt, and B’s own reads hold nothing of A’s', async () => {
      await signInBAgain();
      const pay = await call(
        b.authorization,
        'POST',
        '/api/v1/subscriptions/tranzila-mock',
        new URLSearchParams({
          ...ids.checkout,
          card_number: TEST_CARDS.success,
          card_holder: 'Beta',
          expiry: '12/29',
          cvv: '123',
        }).toString(),
        {
          'content-type': 'application/x-www-form-urlencoded',
        },
      );
      expect(pay.statusCode, pay.body).toBe(403);
      // The receipt link is signed for its payment and owner, so that a plain browser link opens it (a capability,
      // like a share link): without A's signature, B gets nothing — not even whether the payment exists.
      const unsigned = await call(b.authorization, 'GET', ids.receiptUrl.replace(/\?.*$/, ''));
      expect(unsigned.statusCode, unsigned.body.slice(0, 200)).toBeGreaterThanOrEqual(400);
      expect(unsigned.statusCode).toBeLessThan(500);
      const forged = await call(b.authorization, 'GET', ids.receiptUrl.replace(/sig=[^&]*/, `sig=${'A'.repeat(43)}`));
      expect(forged.statusCode).toBe(404);
      for (const url of [
        '/api/v1/subscriptions/payment-history',
        '/api/v1/inbox',
        '/api/v1/workflows',
        '/api/v1/guidelines',
        '/api/v1/actions',
        '/api/v1/assistants/',
        '/api/v1/web-crawler/user/all',
      ]) {
        const response = await call(b.authorization, 'GET', url);
        expect(response.statusCode, `${url} → ${response.body}`).toBe(200);
        expect(
          fingerprints.filter((text) => response.body.includes(text)),
          url,
        ).toEqual([]);
      }
      expect((await call(b.authorization, 'GET', '/api/v1/subscriptions/status')).json()).toMatchObject({
        tier: 'FREE',
      });
    });
  },
);
