import { chatMessages, streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `the plan's monthly message limit${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let now = new Date('2026-03-31T23:58:00.000Z');
    beforeAll(async () => {
      h = await createApiHarness({ env: { PLAN_FREE_MESSAGES_PER_MONTH: '3' }, clock: () => now });
    });
    afterAll(async () => h?.close());

    async function ownerWithAssistant() {
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
      const thread = async () =>
        (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/threads/',
            headers: auth,
            payload: { assistant_id: created.assistant_id },
          })
        ).json().thread_id as string;
      // The month counts answered messages (docs/chat.md): a message goes with its run, which is waited for.
      const post = (threadId: string, content: string) =>
        asked(`/api/v1/threads/${threadId}`, auth, {}, created.openai_assistant_id, content);
      const usage = async () => (await h.app.inject({ url: '/api/v1/limits/usage', headers: auth })).json();
      const visitor = async () => {
        const session = 'a'.repeat(64);
        const started = (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/threads/public',
            payload: { assistant_id: created.assistant_id, share_token: share.share_token, session_token: session },
          })
        ).json();
        return (content: string) =>
          asked(
            `/api/v1/threads/public/${started.thread_id}`,
            {},
            { session_token: session },
            created.openai_assistant_id,
            content,
          );
      };
      return { auth, thread, post, usage, visitor };
    }

    /** Sends a message with its run and, when it was taken, waits for the answer to settle; answers the send. */
    async function asked(
      base: string,
      headers: Record<string, string>,
      visitor: Record<string, string>,
      assistantId: string,
      content: string,
    ) {
      const sent = await h.app.inject({
        method: 'POST',
        url: `${base}/runs`,
        headers,
        payload: { assistant_id: assistantId, ...visitor, additional_messages: [{ role: 'user', content }] },
      });
      if (sent.statusCode !== 201) return sent;
      const query = visitor.session_token ? `?session_token=${visitor.session_token}` : '';
      await expect
        .poll(
          async () => (await h.app.inject({ url: `${base}/runs/${sent.json().id}${query}`, headers })).json().status,
          { timeout: 30_000, interval: 50 },
        )
        .toBe('completed');
      return sent;
    }

    const messagesIn = async (threadId: string) =>
      (await h.platform.eventStore.readStream(streamIds.thread(threadId))).filter(
        (e) => e.type === 'MessagePosted' && (e.data as { role: string }).role === 'user',
      ).length;

    it("counts the owner's and visitors' messages together, refuses the next one with the plan's text, and opens again on the 1st (UTC)", async () => {
      const dana = await ownerWithAssistant();
      const threadId = await dana.thread();
      expect((await dana.post(threadId, 'When do you open?')).statusCode).toBe(201);
      expect((await dana.post(threadId, 'And on Friday?')).statusCode).toBe(201);
      const visitorPosts = await dana.visitor();
      expect((await visitorPosts('Do you bake challah?')).statusCode).toBe(201);

      // The chat reads a run as completed from its thread's stream, the usage page from the usage read model: it counts the answer a moment later.
      await expect
        .poll(() => dana.usage(), { timeout: 30_000, interval: 50 })
        .toEqual({
          tier: 'FREE',
          usage: { assistants: 1, messages: 3, storage_mb: 0 },
          limits: {
            max_assistants: 1,
            max_messages_per_month: 3,
            max_files: 5,
            max_crawl_pages: 50,
            max_storage_mb: 100,
          },
          period_start: '2026-03-01T00:00:00.000Z',
          period_end: '2026-04-01T00:00:00.000Z',
        });

      // The owner's limit, shared by all their assistants: not "This assistant has reached…" (issue 22 item 15).
      const text =
        "You have reached your plan's monthly limit of 3 messages across all your assistants. Please try again next month or upgrade the plan.";
      expect(chatMessages.monthlyLimitReached(3)).toBe(text);
      const fourth = await dana.post(threadId, 'One more?');
      expect(fourth.statusCode).toBe(403);
      expect(fourth.json()).toMatchObject({ detail: text });
      // A visitor is never told to upgrade the owner's plan (issue 21 item 12).
      expect((await visitorPosts('And me?')).json()).toMatchObject({ detail: chatMessages.assistantUnavailable });
      expect(await messagesIn(threadId)).toBe(2);

      // Deleting a conversation does not give its messages back.
      await h.app.inject({ method: 'DELETE', url: `/api/v1/threads/${threadId}`, headers: dana.auth });
      const another = await dana.thread();
      expect((await dana.post(another, 'Fresh start?')).statusCode).toBe(403);
      expect(await messagesIn(another)).toBe(0);

      // Another owner's plan is their own.
      const noa = await ownerWithAssistant();
      expect((await noa.post(await noa.thread(), 'Hello?')).statusCode).toBe(201);

      now = new Date('2026-04-01T00:00:00.000Z');
      expect((await dana.post(another, 'A new month?')).statusCode).toBe(201);
      expect((await visitorPosts('Me too?')).statusCode).toBe(201);
      await expect
        .poll(() => dana.usage(), { timeout: 30_000, interval: 50 })
        .toMatchObject({
          usage: { messages: 2 },
          period_start: '2026-04-01T00:00:00.000Z',
          period_end: '2026-05-01T00:00:00.000Z',
        });
    });

    it('is documented: a 403 on both message routes, and the usage route', async () => {
      const spec = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
      for (const path of ['/api/v1/threads/{threadId}/messages', '/api/v1/threads/public/{threadId}/messages']) {
        expect(JSON.stringify(spec.paths[path].post.responses['403'])).toContain(
          "reached your plan's monthly limit of",
        );
      }
      expect(spec.paths['/api/v1/limits/usage'].get.responses['200']).toBeDefined();
    });

    it('asks for a signed-in owner', async () => {
      expect((await h.app.inject({ url: '/api/v1/limits/usage' })).statusCode).toBe(401);
    });
  },
);
