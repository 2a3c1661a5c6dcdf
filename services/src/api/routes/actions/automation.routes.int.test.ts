import { ActionSchema, ExternalApiConfigSchema, GuidelineSchema, WorkflowSchema } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../outbound/testing/test-server.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const postgres = await postgresAvailability();
/** The stand-in API is on 127.0.0.1: only it is let through the SSRF guard. */
const env = { OUTBOUND_ALLOWLIST: '127.0.0.1' };
const SECRET = 'Bearer sk-live-0123456789abcdef';

/** A small business API: orders (needs the secret), leads (echoes), and the ways APIs go wrong. */
async function startStandIn(): Promise<TestServer & { bodies: string[] }> {
  const bodies: string[] = [];
  const server = await startTestServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      bodies.push(body);
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname.startsWith('/orders/')) {
        if (request.headers.authorization !== SECRET) return json(401, { error: 'unauthorized' });
        return json(200, { id: url.pathname.split('/')[2], status: 'shipped' });
      }
      if (url.pathname === '/leads' && request.method === 'POST')
        return json(201, { received: JSON.parse(body || 'null') });
      // Answers long after the action's 500 ms: a test that waited for it would take twenty seconds.
      if (url.pathname === '/slow') return void setTimeout(() => json(200, { late: true }), 20_000).unref();
      if (url.pathname === '/huge') return json(200, { blob: 'x'.repeat(400 * 1024) });
      if (url.pathname === '/html')
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
      if (url.pathname === '/to-private') return response.writeHead(302, { location: 'http://127.0.0.2:9/' }).end();
      if (url.pathname === '/') return json(200, { ok: true });
      json(404, { error: 'not found' });
    });
  });
  return Object.assign(server, { bodies });
}

describe.skipIf(!postgres.available)(
  `workflows, guidelines, actions and external API config${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let api: TestServer & { bodies: string[] };

    beforeAll(async () => {
      api = await startStandIn();
      h = await createApiHarness({ env });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await api?.close();
    });

    const call = (authorization: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      h.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    it('creates, lists, replaces, toggles and deletes — each owner sees only their own, and another owner’s ids answer 404', async () => {
      const a = await h.owner();
      const b = await h.owner();
      const action = await call(a.authorization, 'POST', '/actions', {
        title: 'Order status',
        api_endpoint: `${api.url('/orders/')}{{order_id}}`,
        api_headers: [
          { key: 'Authorization', value: SECRET },
          { key: 'X-Empty', value: '' },
        ],
        api_inputs: [{ name: 'order_id', type: 'number' }],
      });
      expect(action.statusCode, action.body).toBe(200);
      const saved = ActionSchema.parse(action.json());
      // Secret headers read back masked; the empty header was dropped (§5).
      expect(saved.api_headers).toEqual([{ key: 'Authorization', value: '********cdef' }]);
      expect(saved.api_inputs).toEqual([{ name: 'order_id', type: 'number', required: true, description: '' }]);

      const workflow = await call(a.authorization, 'POST', '/workflows', {
        title: 'Order status',
        trigger_condition: 'The visitor asks where their order is',
        training_phrases: ['where is my order', '', 'track my package', 'איפה ההזמנה שלי'],
        instructions: 'Ask for the order number, then look it up.',
        linked_actions: [saved.id],
      });
      expect(workflow.statusCode, workflow.body).toBe(200);
      const wf = WorkflowSchema.parse(workflow.json());
      expect(wf.training_phrases).toEqual(['where is my order', 'track my package', 'איפה ההזמנה שלי']);

      const guideline = await call(a.authorization, 'POST', '/guidelines', {
        title: 'Sign-off',
        category: 'format',
        instructions: 'End every answer with "— The Crumb team"',
      });
      const gl = GuidelineSchema.parse(guideline.json());
      expect(gl.active).toBe(true);
      const toggled = await call(a.authorization, 'PUT', `/guidelines/${gl.id}`, { active: false });
      expect(toggled.statusCode, toggled.body).toBe(200);
      expect(toggled.json()).toMatchObject({ active: false, title: 'Sign-off', category: 'format' });

      // Owner isolation: B lists nothing and cannot touch A's items.
      for (const path of ['/workflows', '/guidelines', '/actions'])
        expect((await call(b.authorization, 'GET', path)).json()).toEqual([]);
      expect(
        (
          await call(b.authorization, 'PUT', `/workflows/${wf.id}`, {
            title: 'x',
            trigger_condition: 'y',
            instructions: 'z',
          })
        ).statusCode,
      ).toBe(404);
      expect((await call(b.authorization, 'DELETE', `/guidelines/${gl.id}`)).statusCode).toBe(404);
      expect((await call(b.authorization, 'DELETE', `/actions/${saved.id}`)).statusCode).toBe(404);
      expect(
        (await call(b.authorization, 'POST', `/actions/${saved.id}/test`, { test_inputs: { order_id: 123 } }))
          .statusCode,
      ).toBe(404);
      // B cannot link A's action either.
      const foreignLink = await call(b.authorization, 'POST', '/workflows', {
        title: 't',
        trigger_condition: 'c',
        instructions: 'i',
        linked_actions: [saved.id],
      });
      expect(foreignLink.statusCode).toBe(422);
      expect(foreignLink.json().detail).toBe(`Linked action ${saved.id} does not exist.`);
      expect((await call(b.authorization, 'GET', '/workflows')).json()).toEqual([]);

      // A replaces the action, sending the masked secret back: the stored secret is kept (the test still authenticates).
      const replaced = await call(a.authorization, 'PUT', `/actions/${saved.id}`, { ...saved, title: 'Order lookup' });
      expect(replaced.statusCode, replaced.body).toBe(200);
      const tested = await call(a.authorization, 'POST', `/actions/${saved.id}/test`, {
        test_inputs: { order_id: 123 },
      });
      expect(tested.json()).toMatchObject({
        success: true,
        message: 'Test successful!',
        status_code: 200,
        response: { id: '123', status: 'shipped' },
      });
      expect(tested.json().request.headers.Authorization).toBe('********cdef');

      // Deleting the action unlinks it from the workflow.
      expect((await call(a.authorization, 'DELETE', `/actions/${saved.id}`)).statusCode).toBe(200);
      expect((await call(a.authorization, 'GET', '/workflows')).json()[0].linked_actions).toEqual([]);
      expect((await call(a.authorization, 'DELETE', `/workflows/${wf.id}`)).json()).toEqual({
        success: true,
        message: 'Workflow deleted',
      });
      expect((await call(a.authorization, 'GET', '/workflows')).json()).toEqual([]);
    });

    it('refuses malformed templates, unknown placeholders, non-http endpoints and bodies that are not JSON — nothing saved', async () => {
      const a = await h.owner();
      const bad = [
        [
          { title: 't', api_endpoint: 'https://example.com/{{id', api_inputs: [{ name: 'id' }] },
          'Endpoint URL: malformed template — placeholders are written {{input_name}}',
        ],
        [
          { title: 't', api_endpoint: 'https://example.com/{{other}}', api_inputs: [{ name: 'id' }] },
          'Endpoint URL: unknown placeholder {{other}} — add an input named "other" or remove it',
        ],
        [{ title: 't', api_endpoint: 'ftp://example.com/x' }, 'The endpoint must be an http:// or https:// address'],
        [
          { title: 't', api_endpoint: 'https://{{host}}/x', api_inputs: [{ name: 'host' }] },
          'The endpoint must be an http:// or https:// address',
        ],
        [
          {
            title: 't',
            api_method: 'POST',
            api_endpoint: 'https://example.com/',
            api_body_template: '{"name": {{name}',
            api_inputs: [{ name: 'name' }],
          },
          'Body template: malformed template — placeholders are written {{input_name}}',
        ],
        [
          {
            title: 't',
            api_method: 'POST',
            api_endpoint: 'https://example.com/',
            api_body_template: '{"name": {{name}} oops}',
            api_inputs: [{ name: 'name' }],
          },
          'Body template must be JSON (placeholders in double braces reference inputs)',
        ],
        [
          { title: 't', api_endpoint: 'https://example.com/', api_headers: [{ key: 'X-Id', value: '{{nope}}' }] },
          'Header X-Id: unknown placeholder {{nope}} — add an input named "nope" or remove it',
        ],
        [{ title: 't', type: 'knowledge_base', kb_sources: [] }, 'Add at least one source to a knowledge base action'],
      ] as const;
      for (const [payload, message] of bad) {
        const response = await call(a.authorization, 'POST', '/actions', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(JSON.stringify(response.json().detail)).toContain(JSON.stringify(message).slice(1, -1));
      }
      const missing = await call(a.authorization, 'POST', '/workflows', {
        title: ' ',
        trigger_condition: 'x',
        instructions: 'y',
      });
      expect(missing.statusCode).toBe(422);
      expect(JSON.stringify(missing.json().detail)).toContain('Title is required');
      expect(
        (await call(a.authorization, 'POST', '/guidelines', { title: 't', category: 'mood', instructions: 'x' }))
          .statusCode,
      ).toBe(422);
      expect((await call(a.authorization, 'GET', '/actions')).json()).toEqual([]);
      expect((await call(a.authorization, 'GET', '/workflows')).json()).toEqual([]);
      expect((await call(a.authorization, 'GET', '/guidelines')).json()).toEqual([]);
    });

    it('tests an action through the SSRF guard: POST body templating; slow, huge, non-JSON and private answers each say why', async () => {
      const a = await h.owner();
      const create = async (payload: Record<string, unknown>) =>
        ActionSchema.parse((await call(a.authorization, 'POST', '/actions', { title: 'a', ...payload })).json());
      const lead = await create({
        api_method: 'POST',
        api_endpoint: api.url('/leads'),
        api_inputs: [{ name: 'name' }, { name: 'seats', type: 'number' }, { name: 'vip', type: 'boolean' }],
        api_body_template: '{"name": "{{name}}", "seats": {{seats}}, "vip": {{vip}}, "note": "from {{name}}"}',
      });
      const sent = await call(a.authorization, 'POST', `/actions/${lead.id}/test`, {
        test_inputs: { name: 'test_value" , "evil": "1', seats: 123, vip: true },
      });
      expect(sent.json()).toMatchObject({ success: true, status_code: 201 });
      // The value stays inside its JSON string: no injected key.
      expect(sent.json().response.received).toEqual({
        name: 'test_value" , "evil": "1',
        seats: 123,
        vip: true,
        note: 'from test_value" , "evil": "1',
      });
      const missingInput = await call(a.authorization, 'POST', `/actions/${lead.id}/test`, {
        test_inputs: { name: 'x' },
      });
      expect(missingInput.statusCode).toBe(422);
      expect(missingInput.json().detail).toBe('Missing required input "seats"');

      const outcome = async (path: string) =>
        (
          await call(a.authorization, 'POST', `/actions/${(await create({ api_endpoint: api.url(path) })).id}/test`, {
            test_inputs: {},
          })
        ).json();
      expect(await outcome('/huge')).toMatchObject({
        success: false,
        message: "The API's response is larger than 256 KB",
      });
      expect(await outcome('/html')).toMatchObject({
        success: false,
        message: "The API's response is not JSON (text/html)",
        response: '<html>hi</html>',
      });
      expect((await outcome('/to-private')).message).toMatch(/^The address was refused: /);
      expect((await outcome('/missing')).message).toBe('The API answered with HTTP 404');
      const before = api.requests.length;
      const privateAction = await create({ api_endpoint: 'http://169.254.169.254/latest/meta-data/' });
      const refused = (
        await call(a.authorization, 'POST', `/actions/${privateAction.id}/test`, { test_inputs: {} })
      ).json();
      expect(refused.success).toBe(false);
      expect(refused.message).toMatch(/^The address was refused: /);
      expect(api.requests.length).toBe(before);
    }, 30_000);

    it('keeps an assistant’s named endpoints with the secret sealed and masked; actions call them by name within their timeout; test-connection probes one', async () => {
      const a = await h.owner();
      const b = await h.owner();
      const assistant = (
        await call(a.authorization, 'POST', '/assistants/', {
          name: 'Crumb',
          description: 'bakery',
          instructions: 'help',
        })
      ).json().assistant_id as number;
      const config = await call(a.authorization, 'POST', `/external-api/assistants/${assistant}/config`, {
        endpoints: [
          {
            name: 'shop',
            base_url: api.url(''),
            auth_header_name: 'Authorization',
            auth_header_value: SECRET,
            timeout_ms: 500,
          },
          { name: 'inner', base_url: 'http://10.1.2.3/' },
        ],
      });
      expect(config.statusCode, config.body).toBe(200);
      const dto = ExternalApiConfigSchema.parse(config.json());
      expect(dto.endpoints[0]).toEqual({
        name: 'shop',
        base_url: api.url(''),
        auth_header_name: 'Authorization',
        auth_header_value: '********cdef',
        has_auth: true,
        timeout_ms: 500,
      });
      // The secret is not in the log in clear.
      const logged = await h.platform.sql.query<{ data: unknown }>(
        `SELECT data FROM events WHERE event_type = 'ExternalApiConfigured'`,
      );
      expect(JSON.stringify(logged.rows)).not.toContain('sk-live');

      expect((await call(b.authorization, 'GET', `/external-api/assistants/${assistant}/config`)).statusCode).toBe(404);
      expect(
        (await call(b.authorization, 'GET', `/external-api/assistants/${assistant}/test-connection?endpoint_name=shop`))
          .statusCode,
      ).toBe(404);

      const probe = (
        await call(a.authorization, 'GET', `/external-api/assistants/${assistant}/test-connection?endpoint_name=shop`)
      ).json();
      expect(probe).toMatchObject({ endpoint_name: 'shop', success: true, status_code: 200 });
      const inner = (
        await call(a.authorization, 'GET', `/external-api/assistants/${assistant}/test-connection?endpoint_name=inner`)
      ).json();
      expect(inner.success).toBe(false);
      expect(inner.message).toMatch(/^The address was refused: /);

      const byName = ActionSchema.parse(
        (
          await call(a.authorization, 'POST', '/actions', {
            title: 'Order',
            endpoint_name: 'shop',
            api_endpoint: '/orders/{{id}}',
            api_inputs: [{ name: 'id' }],
          })
        ).json(),
      );
      const viaName = (
        await call(a.authorization, 'POST', `/actions/${byName.id}/test`, {
          test_inputs: { id: 'test_value' },
          assistant_id: assistant,
        })
      ).json();
      expect(viaName).toMatchObject({ success: true, response: { id: 'test_value', status: 'shipped' } });
      const slow = ActionSchema.parse(
        (
          await call(a.authorization, 'POST', '/actions', {
            title: 'Slow',
            endpoint_name: 'shop',
            api_endpoint: '/slow',
          })
        ).json(),
      );
      const started = Date.now();
      expect(
        (
          await call(a.authorization, 'POST', `/actions/${slow.id}/test`, { test_inputs: {}, assistant_id: assistant })
        ).json(),
      ).toMatchObject({ success: false, message: 'The API did not answer within 500 ms' });
      expect(Date.now() - started).toBeLessThan(10_000); // the stand-in answers at 20 s

      // Sending the masked value back keeps the secret; deleting removes the configuration.
      const kept = await call(a.authorization, 'POST', `/external-api/assistants/${assistant}/config`, {
        endpoints: [{ ...dto.endpoints[0], timeout_ms: 800 }],
      });
      expect(kept.json().endpoints[0]).toMatchObject({ auth_header_value: '********cdef', timeout_ms: 800 });
      expect(
        (
          await call(a.authorization, 'POST', `/actions/${byName.id}/test`, {
            test_inputs: { id: 7 },
            assistant_id: assistant,
          })
        ).json().success,
      ).toBe(true);
      const dup = await call(a.authorization, 'POST', `/external-api/assistants/${assistant}/config`, {
        endpoints: [
          { name: 'x', base_url: api.url('') },
          { name: 'X', base_url: api.url('') },
        ],
      });
      expect(dup.statusCode).toBe(422);
      expect((await call(a.authorization, 'DELETE', `/external-api/assistants/${assistant}/config`)).statusCode).toBe(
        200,
      );
      expect((await call(a.authorization, 'GET', `/external-api/assistants/${assistant}/config`)).statusCode).toBe(404);
    }, 30_000);

    it('documents every call in the OpenAPI document', async () => {
      const doc = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
      const paths = Object.keys(doc.paths);
      for (const path of [
        '/api/v1/workflows',
        '/api/v1/workflows/{id}',
        '/api/v1/workflows/match',
        '/api/v1/workflows/overlaps',
        '/api/v1/workflows/stats',
        '/api/v1/guidelines',
        '/api/v1/guidelines/{id}',
        '/api/v1/actions',
        '/api/v1/actions/{id}',
        '/api/v1/actions/{id}/test',
        '/api/v1/external-api/assistants/{id}/config',
        '/api/v1/external-api/assistants/{id}/test-connection',
        '/api/v1/automation/configuration',
        '/api/v1/automation/conversations/{threadId}',
      ]) {
        expect(paths, path).toContain(path);
      }
      expect(
        doc.paths['/api/v1/actions/{id}/test'].post.requestBody.content['application/json'].schema.properties
          .test_inputs,
      ).toBeDefined();
    });

    it('says which workflow would fire, with its score and phrases, and warns when two workflows compete for a phrase', async () => {
      const a = await h.owner();
      const make = (title: string, phrases: string[]) =>
        call(a.authorization, 'POST', '/workflows', {
          title,
          trigger_condition: title,
          training_phrases: phrases,
          instructions: 'x',
        });
      await make('Book', ['I want to book an appointment', 'לקבוע תור']);
      await make('Cancel', ['cancel my appointment', 'לבטל את התור']);
      await make('Appointments', ['book an appointment please']);
      const match = (
        await call(a.authorization, 'POST', '/workflows/match', { message: 'אפשר לבטל את התורים שלי?' })
      ).json();
      expect(match.fired).toMatchObject({ title: 'Cancel', matched_on: 'phrase', matched_phrases: ['לבטל את התור'] });
      expect(match.fired.score).toBeGreaterThanOrEqual(match.threshold);
      expect(
        (await call(a.authorization, 'POST', '/workflows/match', { message: 'what time do you open?' })).json().fired,
      ).toBeNull();
      const { overlaps } = (await call(a.authorization, 'GET', '/workflows/overlaps')).json();
      expect(
        overlaps.some(
          (o: { workflow_title: string; other_workflow_title: string }) =>
            o.workflow_title === 'Book' && o.other_workflow_title === 'Appointments',
        ),
      ).toBe(true);
      // Another owner's workflows never fire for this owner.
      const b = await h.owner();
      expect(
        (await call(b.authorization, 'POST', '/workflows/match', { message: 'לבטל את התור' })).json().fired,
      ).toBeNull();
    });

    it('answers the overlap report and the tester for 101 workflows × 50 phrases × 300 characters within a budget, and keeps answering others meanwhile (issue 21 item 3)', async () => {
      const attacker = await h.owner();
      const words = Array.from({ length: 600 }, (_, i) => `term${i.toString(36)}q`);
      let state = 3;
      const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      const phrase = () => {
        let text = '';
        while (text.length < 300) text += `${words[Math.floor(random() * words.length)]} `;
        return text.slice(0, 300);
      };
      // The limits hold: 300 characters a phrase, 50 phrases a workflow, nothing saved beyond them.
      const tooLong = await call(attacker.authorization, 'POST', '/workflows', {
        title: 'x',
        trigger_condition: 'x',
        instructions: 'x',
        training_phrases: [`${phrase()}!`],
      });
      expect(tooLong.statusCode).toBe(422);
      expect(JSON.stringify(tooLong.json().detail)).toContain('A training phrase is too long (max 300 characters)');
      const tooMany = await call(attacker.authorization, 'POST', '/workflows', {
        title: 'x',
        trigger_condition: 'x',
        instructions: 'x',
        training_phrases: Array.from({ length: 51 }, phrase),
      });
      expect(tooMany.statusCode).toBe(422);
      expect(JSON.stringify(tooMany.json().detail)).toContain('Too many training phrases (max 50)');
      for (let i = 0; i < 101; i++) {
        const saved = await call(attacker.authorization, 'POST', '/workflows', {
          title: `Workflow ${i}`,
          trigger_condition: phrase(),
          instructions: 'x',
          training_phrases: Array.from({ length: 50 }, phrase),
        });
        expect(saved.statusCode, saved.body).toBe(200);
      }

      // Another tenant's health checks are answered while the report is computed.
      let inFlight = true;
      let answeredMeanwhile = 0;
      const report = call(attacker.authorization, 'GET', '/workflows/overlaps').finally(() => (inFlight = false));
      while (inFlight) {
        const health = await h.app.inject({ url: '/api/v1/health' });
        expect(health.statusCode).toBe(200);
        if (inFlight) answeredMeanwhile++;
      }
      const overlaps = await report;
      expect(overlaps.statusCode, overlaps.body).toBe(200);
      // Partial, and saying so: the words every workflow shares were left out of the comparison.
      expect(overlaps.json()).toMatchObject({ complete: false, total_phrases: 101 * 50 });
      expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);

      const tester = await call(attacker.authorization, 'POST', '/workflows/match', {
        message: Array.from({ length: 7 }, phrase).join(' ').slice(0, 2_000),
      });
      expect(tester.statusCode, tester.body).toBe(200);
      expect(tester.json().candidates.length).toBeGreaterThan(0);
      // Asked again, the same configuration's report comes from the cache, not a second computation.
      expect((await call(attacker.authorization, 'GET', '/workflows/overlaps')).json()).toEqual(overlaps.json());
    }, 240_000);
  },
);
