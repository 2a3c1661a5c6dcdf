import { chatMessages } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/** Chat History's Resume, Rename and Delete on a visitor's conversation (issue 10 item 16). */
describe.skipIf(!gate.available)(
  `the owner and visitors' conversations${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness();
    });
    afterAll(async () => h?.close());

    async function visitorConversation() {
      const owner = await h.owner();
      const auth = { authorization: owner.authorization };
      const created = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: auth,
          payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer briefly' },
        })
      ).json();
      const share = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${created.assistant_id}/generate-share-token`,
          headers: auth,
        })
      ).json();
      const session = 'c'.repeat(64);
      const threadId = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/public',
          payload: { assistant_id: created.assistant_id, share_token: share.share_token, session_token: session },
        })
      ).json().thread_id as string;
      const base = `/api/v1/threads/public/${threadId}`;
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `${base}/messages`,
            payload: { content: 'Do you bake challah on Fridays?', session_token: session },
          })
        ).statusCode,
      ).toBe(201);
      const run = (
        await h.app.inject({
          method: 'POST',
          url: `${base}/runs`,
          payload: { assistant_id: created.openai_assistant_id, session_token: session },
        })
      ).json();
      await expect
        .poll(
          async () =>
            (await h.app.inject({ url: `${base}/runs/${run.run_id}?session_token=${session}` })).json().status,
          { timeout: 30_000, interval: 50 },
        )
        .toBe('completed');
      return {
        auth,
        assistantId: created.assistant_id as number,
        externalId: created.openai_assistant_id as string,
        threadId,
        session,
        base,
      };
    }

    it("lets the owner open a visitor's conversation from Chat History, read-only, and see that it is one", async () => {
      const { auth, assistantId, externalId, threadId } = await visitorConversation();
      // Chat History reads the threads read model, which follows the log: wait for the conversation there.
      await expect
        .poll(
          async () => (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/threads`, headers: auth })).json(),
          { timeout: 30_000, interval: 20 },
        )
        .toEqual([expect.objectContaining({ id: threadId, is_public: true, channel: 'public_link' })]);

      const messages = await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth });
      expect(messages.statusCode).toBe(200);
      expect(messages.json().data.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
      expect(messages.json().data[0].content[0].text.value).toBe('Do you bake challah on Fridays?');
      const thread = await h.app.inject({ url: `/api/v1/threads/${threadId}`, headers: auth });
      expect(thread.json()).toMatchObject({
        id: threadId,
        is_public: true,
        channel: 'public_link',
        assistant_id: assistantId,
      });

      // Read-only: the owner's words would be shown to the visitor and counted as theirs.
      const post = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${threadId}/messages`,
        headers: auth,
        payload: { content: 'Hello from the owner' },
      });
      expect(post.statusCode).toBe(403);
      expect(post.json()).toMatchObject({ detail: chatMessages.visitorThreadReadOnly });
      const run = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${threadId}/runs`,
        headers: auth,
        payload: { assistant_id: externalId },
      });
      expect(run.statusCode).toBe(403);
      expect(
        (await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth })).json().data,
      ).toHaveLength(2);

      // The owner's own conversations say they are theirs.
      const own = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers: auth,
          payload: { assistant_id: assistantId },
        })
      ).json().thread_id;
      expect((await h.app.inject({ url: `/api/v1/threads/${own}`, headers: auth })).json()).toMatchObject({
        is_public: false,
        channel: 'app',
      });
    });

    it('renames and deletes it; the visitor then finds it gone', async () => {
      const { auth, assistantId, threadId, session, base } = await visitorConversation();
      const renamed = await h.app.inject({
        method: 'PATCH',
        url: `/api/v1/threads/${threadId}`,
        headers: auth,
        payload: { title: 'Challah on Fridays' },
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ id: threadId, title: 'Challah on Fridays', is_public: true });
      expect(
        (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/threads`, headers: auth })).json()[0].title,
      ).toBe('Challah on Fridays');

      expect(
        (await h.app.inject({ method: 'DELETE', url: `/api/v1/threads/${threadId}`, headers: auth })).statusCode,
      ).toBe(200);
      expect((await h.app.inject({ url: `/api/v1/assistants/${assistantId}/threads`, headers: auth })).json()).toEqual(
        [],
      );
      expect((await h.app.inject({ url: `${base}/messages?session_token=${session}` })).json()).toMatchObject({
        detail: 'THREAD_NOT_FOUND',
      });
    });

    it('shows another owner nothing of it', async () => {
      const { threadId } = await visitorConversation();
      const stranger = { authorization: (await h.owner()).authorization };
      for (const request of [
        { method: 'GET' as const, url: `/api/v1/threads/${threadId}` },
        { method: 'GET' as const, url: `/api/v1/threads/${threadId}/messages` },
        { method: 'PATCH' as const, url: `/api/v1/threads/${threadId}`, payload: { title: 'Mine now' } },
        { method: 'DELETE' as const, url: `/api/v1/threads/${threadId}` },
      ]) {
        const response = await h.app.inject({ ...request, headers: stranger });
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
        expect(response.body).not.toContain('challah');
      }
    });
  },
);
