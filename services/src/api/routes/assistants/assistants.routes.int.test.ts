import { randomUUID } from 'node:crypto';
import { messages, streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEvent } from '../../../platform/event-store/testing/test-event.js';
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

describe.skipIf(!gate.available)(
  `assistant and share routes on real Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness();
    });
    afterAll(async () => h?.close());

    it('creates, lists, reads, updates and deletes an assistant with every spec field', async () => {
      const { authorization, accountId } = await h.owner();
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization },
        payload: body({ functions: [{ name: 'check_stock' }] }),
      });
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
          web_crawler: {
            enabled: false,
            website_url: 'https://bakery.example.com',
            max_pages: 2000,
            max_depth: 10,
            delete_orphaned_pages: false,
          },
          payment_processing: { enabled: false, sales_prompt: '' },
        }),
      ]);

      const updated = await h.app.inject({
        method: 'PUT',
        url: `/api/v1/assistants/${assistant_id}`,
        headers: { authorization },
        payload: { name: 'Cake helper', chat_limit: 25 },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        name: 'Cake helper',
        chat_limit: 25,
        description: 'Answers questions about our bakery',
      });

      expect(
        (
          await h.app.inject({
            method: 'DELETE',
            url: `/api/v1/assistants/${assistant_id}`,
            headers: { authorization },
          })
        ).statusCode,
      ).toBe(200);
      const gone = await h.app.inject({ url: `/api/v1/assistants/${assistant_id}`, headers: { authorization } });
      expect(gone.statusCode).toBe(404);
      expect((await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json()).toEqual([]);
    });

    it('enforces the create rules with the spec texts', async () => {
      const { authorization } = await h.owner();
      const post = (payload: object) =>
        h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload });
      const firstMessage = async (payload: object) => {
        const response = await post(payload);
        expect(response.statusCode).toBe(422);
        const detail = response.json().detail;
        return typeof detail === 'string' ? detail : detail[0].msg;
      };
      expect(await firstMessage(body({ name: '  ' }))).toBe('Assistant name is required');
      expect(await firstMessage(body({ description: Array(1001).fill('w').join(' ') }))).toBe(
        'Description is too long (max 1000 words)',
      );
      expect(await firstMessage(body({ instructions: Array(1001).fill('w').join(' ') }))).toBe(
        'Instructions are too long (max 1000 words)',
      );
      expect(await firstMessage(body({ website_url: 'javascript:alert(1)' }))).toBe('Please enter a valid website URL');
      expect(await firstMessage(body({ sales_mode: { enabled: true, sales_prompt: 'Sell' } }))).toBe(
        'Sales mode can only be enabled when the website scanner is on',
      );
      expect((await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json()).toEqual([]);
    });

    it('caps the long text fields by characters too: an 880 KB "1000-word" description is refused, naming the field', async () => {
      const { authorization } = await h.owner();
      const huge = Array.from({ length: 1000 }, () => 'x'.repeat(880)).join(' ');
      const response = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization },
        payload: body({ description: huge }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'description'],
          msg: 'Description is too long (max 20,000 characters)',
        }),
      ]);
      const id = (
        await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload: body() })
      ).json().assistant_id;
      const update = await h.app.inject({
        method: 'PUT',
        url: `/api/v1/assistants/${id}`,
        headers: { authorization },
        payload: { instructions: huge },
      });
      expect(update.statusCode).toBe(422);
      expect(update.json().detail[0]).toMatchObject({
        loc: ['body', 'instructions'],
        msg: 'Instructions are too long (max 20,000 characters)',
      });
      expect(
        (await h.app.inject({ url: `/api/v1/assistants/${id}`, headers: { authorization } })).json().instructions,
      ).toBe('Answer from the menu only');
    });

    it("enforces the plan's max_assistants race-free: 20 creates at once give exactly one assistant on the free plan", async () => {
      const { authorization } = await h.owner();
      const limitText = messages.assistantLimitReached(1);
      expect(limitText).toBe(
        "You have reached your plan's limit of 1 assistant. Delete an assistant or upgrade the plan to create another.",
      );
      const attempts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: { authorization },
            payload: body({ name: `Helper ${i}` }),
          }),
        ),
      );
      expect(
        attempts.filter((r) => r.statusCode === 201),
        attempts.map((r) => `${r.statusCode} ${r.body.slice(0, 160)}`).join('\n'),
      ).toHaveLength(1);
      const refused = attempts.filter((r) => r.statusCode !== 201);
      expect(refused.map((r) => r.statusCode)).toEqual(Array(19).fill(403));
      expect(new Set(refused.map((r) => r.json().detail))).toEqual(new Set([limitText]));
      expect((await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json()).toHaveLength(1);

      // Deleting gives the place back.
      const [kept] = (await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json();
      expect(
        (await h.app.inject({ method: 'DELETE', url: `/api/v1/assistants/${kept.id}`, headers: { authorization } }))
          .statusCode,
      ).toBe(200);
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: { authorization },
            payload: body(),
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: { authorization },
            payload: body(),
          })
        ).statusCode,
      ).toBe(403);
    });

    it('a create whose slot a concurrent one reclaimed before its stream began tries again instead of refusing below the limit', async () => {
      // At the limit, a create checks every holder of a slot and closes the stream of one that has not
      // begun, taking it for a crashed create. Here that happens to the only create in flight (the store
      // closes its stream just before its first append): the owner, with no assistant, must get one.
      const { authorization } = await h.owner();
      const store = h.platform.eventStore;
      const append = store.appendToStream.bind(store);
      let closed = 0;
      store.appendToStream = async (streamId, events, options) => {
        if (closed === 0 && events[0]?.type === 'AssistantCreated') {
          closed++;
          await store.deleteStream(streamId, { expectedRevision: 'no_stream' });
        }
        return append(streamId, events, options);
      };
      try {
        const created = await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: { authorization },
          payload: body(),
        });
        expect(closed).toBe(1);
        expect(created.statusCode, created.body).toBe(201);
      } finally {
        store.appendToStream = append;
      }
      expect((await h.app.inject({ url: '/api/v1/assistants/', headers: { authorization } })).json()).toHaveLength(1);
    });

    it('reclaims a slot held by nothing: a create cut short, or a deletion whose slot was never given back', async () => {
      const { authorization, accountId } = await h.owner();
      const slots = streamIds.assistantSlots(accountId);
      const meta = {
        correlationId: 'test',
        causationId: 'test',
        actor: { kind: 'system' as const, id: 'test' },
        timestamp: new Date().toISOString(),
        schemaVersion: 1,
      };
      // As if the process died between taking the slot and recording the assistant.
      await h.platform.eventStore.appendToStream(
        slots,
        [
          {
            type: 'AssistantSlotTaken',
            data: { ownerId: accountId, assistantId: 'never-created' },
            metadata: { ...meta, eventId: randomUUID() },
          },
        ],
        {
          expectedRevision: 'no_stream',
        },
      );
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization },
        payload: body(),
      });
      expect(created.statusCode).toBe(201);
      // The abandoned create can no longer complete over the limit.
      await expect(h.platform.eventStore.readStream(streamIds.assistant('never-created'))).rejects.toThrow(/deleted/);

      // As if the process died between deleting the assistant and giving its slot back.
      const id = created.json().assistant_id;
      const stream = streamIds.assistant(
        (await h.platform.sql.query<{ id: string }>(`SELECT id FROM assistants WHERE numeric_id = $1`, [id])).rows[0]!
          .id,
      );
      const revision = (await h.platform.eventStore.readStream(stream)).length - 1;
      await h.platform.eventStore.appendToStream(
        stream,
        [
          {
            type: 'AssistantDeleted',
            data: { assistantId: stream.slice('assistant-'.length) },
            metadata: { ...meta, eventId: randomUUID() },
          },
        ],
        {
          expectedRevision: BigInt(revision),
        },
      );
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: { authorization },
            payload: body(),
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: { authorization },
            payload: body(),
          })
        ).statusCode,
      ).toBe(403);
    });

    it('takes a slot given back by someone else while it was refused, instead of refusing with room free', async () => {
      // At the limit the create is refused, checks the holders, finds none gone — because another process
      // (a delete finishing, the erasure worker) gave the only slot back between the two. Room is free.
      const { authorization, accountId } = await h.owner();
      const first = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization },
        payload: body(),
      });
      expect(first.statusCode).toBe(201);
      const slots = streamIds.assistantSlots(accountId);
      const [held] = (await h.platform.eventStore.readStream(slots)).map(
        (e) => (e.data as { assistantId: string }).assistantId,
      );
      const store = h.platform.eventStore;
      const read = store.readStream.bind(store);
      let slotReads = 0;
      store.readStream = async (streamId, options) => {
        // The second read of the slots is the reclaim's, right after the refusal: give the slot back first.
        if (streamId === slots && ++slotReads === 2) {
          const revision = BigInt((await read(slots)).length - 1);
          await store.appendToStream(
            slots,
            [testEvent('AssistantSlotFreed', { ownerId: accountId, assistantId: held! })],
            {
              expectedRevision: revision,
            },
          );
        }
        return read(streamId, options);
      };
      try {
        const second = await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: { authorization },
          payload: body(),
        });
        expect(slotReads).toBeGreaterThanOrEqual(2);
        expect(second.statusCode, second.body).toBe(201);
      } finally {
        store.readStream = read;
      }
    });

    it('turns sales mode off when the crawler is turned off', async () => {
      const { authorization } = await h.owner();
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization },
        payload: body({
          web_crawler: { enabled: true, web_crawler_config: { url: 'https://bakery.example.com' } },
          sales_mode: { enabled: true, sales_prompt: 'Offer the cake of the day' },
        }),
      });
      const id = created.json().assistant_id;
      const off = await h.app.inject({
        method: 'PUT',
        url: `/api/v1/assistants/${id}`,
        headers: { authorization },
        payload: { web_crawler: { enabled: false, website_url: 'https://bakery.example.com' } },
      });
      expect(off.json()).toMatchObject({
        web_crawler: { enabled: false },
        payment_processing: { enabled: false, sales_prompt: 'Offer the cake of the day' },
      });
    });

    it("keeps owners apart: another owner's assistant answers 404 everywhere", async () => {
      const alice = await h.owner();
      const bob = await h.owner();
      const id = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: { authorization: alice.authorization },
          payload: body(),
        })
      ).json().assistant_id;
      const as = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
        h.app.inject({ method, url, headers: { authorization: bob.authorization }, ...(payload ? { payload } : {}) });
      for (const response of [
        await as('GET', `/api/v1/assistants/${id}`),
        await as('PUT', `/api/v1/assistants/${id}`, { name: 'stolen' }),
        await as('DELETE', `/api/v1/assistants/${id}`),
        await as('POST', `/api/v1/assistants/${id}/share`),
        await as('POST', `/api/v1/assistants/${id}/generate-share-token`),
        await as('POST', `/api/v1/assistants/${id}/rotate-share-token`),
        await as('DELETE', `/api/v1/assistants/${id}/share-token`),
        await as('GET', `/api/v1/assistants/${id}/files`),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('Bakery');
      }
      expect((await as('GET', '/api/v1/assistants/')).json()).toEqual([]);
      const mine = (
        await h.app.inject({ url: `/api/v1/assistants/${id}`, headers: { authorization: alice.authorization } })
      ).json();
      expect(mine.name).toBe('Bakery helper');
      const unauthenticated = await h.app.inject({ url: '/api/v1/assistants/' });
      expect(unauthenticated.statusCode).toBe(401);
    });

    it('issues, rotates and revokes share links; a public visitor reads only the shared view', async () => {
      // Generate is idempotent (issue 10 item 15); rotate-share-token is the explicit replacement.
      const { authorization } = await h.owner();
      const id = (
        await h.app.inject({ method: 'POST', url: '/api/v1/assistants/', headers: { authorization }, payload: body() })
      ).json().assistant_id;
      const first = (
        await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${id}/share`, headers: { authorization } })
      ).json();
      expect(first.share_url).toMatch(/^http:\/\/localhost:8000\/shared-chat\/[A-Za-z0-9_-]{32}$/);
      const same = (
        await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${id}/share`, headers: { authorization } })
      ).json();
      expect(same).toEqual(first);
      const token = first.share_url.split('/').pop();
      const shared = await h.app.inject({ url: `/api/v1/assistants/shared/${token}` });
      expect(shared.statusCode).toBe(200);
      expect(Object.keys(shared.json()).sort()).toEqual([
        'avatar_url',
        'description',
        'id',
        'name',
        'openai_assistant_id',
      ]);

      // Generating again answers the link customers already have: it never replaces it.
      const generated = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${id}/generate-share-token`,
        headers: { authorization },
      });
      expect(generated.statusCode).toBe(200);
      expect(generated.json()).toEqual({ share_url: first.share_url, share_token: token });
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${id}/generate-share-token`,
            headers: { authorization },
          })
        ).json().share_token,
      ).toBe(token);
      expect((await h.app.inject({ url: `/api/v1/assistants/shared/${token}` })).statusCode).toBe(200);

      // Rotating is its own explicit call; the old link then reads as invalid.
      const rotation = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${id}/rotate-share-token`,
        headers: { authorization },
      });
      expect(rotation.statusCode).toBe(200);
      const rotated = rotation.json();
      expect(rotated.share_token).not.toBe(token);
      expect(rotated.share_url.endsWith(rotated.share_token)).toBe(true);
      const old = await h.app.inject({ url: `/api/v1/assistants/shared/${token}` });
      expect(old.statusCode).toBe(404);
      expect(old.json()).toMatchObject({ detail: 'Invalid or expired share link.' });

      expect((await h.app.inject({ url: `/api/v1/assistants/shared/${rotated.share_token}` })).statusCode).toBe(200);
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${id}/generate-share-token`,
            headers: { authorization },
          })
        ).json().share_token,
      ).toBe(rotated.share_token);

      await h.app.inject({ method: 'DELETE', url: `/api/v1/assistants/${id}/share-token`, headers: { authorization } });
      expect((await h.app.inject({ url: `/api/v1/assistants/shared/${rotated.share_token}` })).statusCode).toBe(404);
      // A token no link can have (a NUL Postgres cannot compare) is just an invalid link, not a 500.
      const malformed = await h.app.inject({ url: '/api/v1/assistants/shared/%00' });
      expect(malformed.statusCode).toBe(404);
      expect(malformed.json()).toMatchObject({ detail: 'Invalid or expired share link.' });
      // After a revocation, generating makes a new link.
      const fresh = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${id}/generate-share-token`,
          headers: { authorization },
        })
      ).json();
      expect(fresh.share_token).not.toBe(rotated.share_token);
      expect((await h.app.inject({ url: `/api/v1/assistants/shared/${fresh.share_token}` })).statusCode).toBe(200);

      const openapi = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
      expect(openapi.paths['/api/v1/assistants/{id}/rotate-share-token'].post.responses['200']).toBeDefined();
      expect(openapi.paths['/api/v1/assistants/{id}/generate-share-token'].post.summary).toMatch(/idempotent/);
      expect((await h.app.inject({ url: '/api/v1/assistants/shared/unknown' })).statusCode).toBe(404);
    });

    it('stores scripts in text fields as text and returns them as JSON strings, never as markup', async () => {
      const { authorization } = await h.owner();
      const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)';
      const id = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: { authorization },
          payload: body({ name: hostile, description: hostile }),
        })
      ).json().assistant_id;
      const response = await h.app.inject({ url: `/api/v1/assistants/${id}`, headers: { authorization } });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().name).toBe(hostile);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });
  },
);
