import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Bakery helper',
  description: 'Answers questions about our bakery',
  instructions: 'Answer from the menu only',
  website_url: 'https://bakery.example.com',
  sales_mode: null,
  web_crawler: null,
  ...overrides,
});

describe.skipIf(!gate.available)(`assistant and share routes on real Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness();
  });
  afterAll(async () => h?.close());

  it('creates, lists, reads, updates and deletes an assistant with every spec field', async () => {
    const { authorization, accountId } = await h.owner();
    const created = await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload: body({ functions: [{ name: 'check_stock' }] }) });
    expect(created.statusCode).toBe(201);
    const { assistant_id, openai_assistant_id, failed_functions } = created.json();
    expect(openai_assistant_id).toMatch(/^asst_[A-Za-z0-9]{24}$/);
    expect(failed_functions).toEqual(['check_stock']);

    const list = (await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json();
    expect(list).toEqual([
      expect.objectContaining({
        id: assistant_id,
        name: 'Bakery helper',
        chat_limit: 100,
        user_id: accountId,
        openai_assistant_id,
        share_token: null,
        telegram_integration: null,
        web_crawler: { enabled: false, website_url: 'https://bakery.example.com', max_pages: 2000, max_depth: 10, delete_orphaned_pages: false },
        payment_processing: { enabled: false, sales_prompt: '' },
      }),
    ]);

    const updated = await h.app.inject({ method: 'PUT', url: `/api/v1/assistants/${assistant_id}`, headers: { authorization }, payload: { name: 'Cake helper', chat_limit: 25 } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Cake helper', chat_limit: 25, description: 'Answers questions about our bakery' });

    expect((await h.app.inject({ method: 'DELETE', url: `/api/v1/assistants/${assistant_id}`, headers: { authorization } })).statusCode).toBe(200);
    const gone = await h.app.inject({ url: `/api/v1/assistants/${assistant_id}`, headers: { authorization } });
    expect(gone.statusCode).toBe(404);
    expect((await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json()).toEqual([]);
  });

  it('enforces the create rules with the spec texts', async () => {
    const { authorization } = await h.owner();
    const post = (payload: object) => h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload });
    const firstMessage = async (payload: object) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(422);
      const detail = response.json().detail;
      return typeof detail === 'string' ? detail : detail[0].msg;
    };
    expect(await firstMessage(body({ name: '  ' }))).toBe('Assistant name is required');
    expect(await firstMessage(body({ description: Array(1001).fill('w').join(' ') }))).toBe('Description is too long (max 1000 words)');
    expect(await firstMessage(body({ instructions: Array(1001).fill('w').join(' ') }))).toBe('Instructions are too long (max 1000 words)');
    expect(await firstMessage(body({ website_url: 'javascript:alert(1)' }))).toBe('Please enter a valid website URL');
    expect(await firstMessage(body({ sales_mode: { enabled: true, sales_prompt: 'Sell' } }))).toBe('Sales mode can only be enabled when the website scanner is on');
    expect((await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json()).toEqual([]);
  });

  it('turns sales mode off when the crawler is turned off', async () => {
    const { authorization } = await h.owner();
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/v1/assistants/',
      headers: { authorization },
      payload: body({ web_crawler: { enabled: true, web_crawler_config: { url: 'https://bakery.example.com' } }, sales_mode: { enabled: true, sales_prompt: 'Offer the cake of the day' } }),
    });
    const id = created.json().assistant_id;
    const off = await h.app.inject({
      method: 'PUT',
      url: `/api/v1/assistants/${id}`,
      headers: { authorization },
      payload: { web_crawler: { enabled: false, website_url: 'https://bakery.example.com' } },
    });
    expect(off.json()).toMatchObject({ web_crawler: { enabled: false }, payment_processing: { enabled: false, sales_prompt: 'Offer the cake of the day' } });
  });

  it("keeps owners apart: another owner's assistant answers 404 everywhere", async () => {
    const alice = await h.owner();
    const bob = await h.owner();
    const id = (await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization: alice.authorization }, payload: body() })).json().assistant_id;
    const as = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
      h.app.inject({ method, url, headers: { authorization: bob.authorization }, ...(payload ? { payload } : {}) });
    for (const response of [
      await as('GET', `/api/v1/assistants/${id}`),
      await as('PUT', `/api/v1/assistants/${id}`, { name: 'stolen' }),
      await as('DELETE', `/api/v1/assistants/${id}`),
      await as('POST', `/api/v1/assistants/${id}/share`),
      await as('POST', `/api/v1/assistants/${id}/generate-share-token`),
      await as('DELETE', `/api/v1/assistants/${id}/share-token`),
      await as('GET', `/api/v1/assistants/${id}/files`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('Bakery');
    }
    expect((await as('GET', '/api/v1/assistants/')).json()).toEqual([]);
    const mine = (await h.app.inject({ url: `/api/v1/assistants/${id}`, headers: { authorization: alice.authorization } })).json();
    expect(mine.name).toBe('Bakery helper');
    const unauthenticated = await h.app.inject({ url: '/api/v1/assistants/' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('issues, rotates and revokes share links; a public visitor reads only the shared view', async () => {
    const { authorization } = await h.owner();
    const id = (await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload: body() })).json().assistant_id;
    const first = (await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${id}/share`, headers: { authorization } })).json();
    expect(first.share_url).toMatch(/^http:\/\/localhost:8000\/shared-chat\/[A-Za-z0-9_-]{32}$/);
    const same = (await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${id}/share`, headers: { authorization } })).json();
    expect(same).toEqual(first);
    const token = first.share_url.split('/').pop();
    const shared = await h.app.inject({ url: `/api/v1/assistants/shared/${token}` });
    expect(shared.statusCode).toBe(200);
    expect(Object.keys(shared.json()).sort()).toEqual(['avatar_url', 'description', 'id', 'name', 'openai_assistant_id']);

    const rotated = (await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${id}/generate-share-token`, headers: { authorization } })).json();
    expect(rotated.share_token).not.toBe(token);
    expect(rotated.share_url.endsWith(rotated.share_token)).toBe(true);
    const old = await h.app.inject({ url: `/api/v1/assistants/shared/${token}` });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ detail: 'Invalid or expired share link.' });

    await h.app.inject({ method: 'DELETE', url: `/api/v1/assistants/${id}/share-token`, headers: { authorization } });
    expect((await h.app.inject({ url: `/api/v1/assistants/shared/${rotated.share_token}` })).statusCode).toBe(404);
    expect((await h.app.inject({ url: '/api/v1/assistants/shared/unknown' })).statusCode).toBe(404);
  });

  it('stores scripts in text fields as text and returns them as JSON strings, never as markup', async () => {
    const { authorization } = await h.owner();
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)';
    const id = (await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload: body({ name: hostile, description: hostile }) })).json().assistant_id;
    const response = await h.app.inject({ url: `/api/v1/assistants/${id}`, headers: { authorization } });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json().name).toBe(hostile);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
