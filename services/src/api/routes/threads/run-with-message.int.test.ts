import { chatMessages, streamIds, type MessageDto } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/**
 * The chat's send in one call: POST …/runs with the message as `additional_messages` posts it and asks
 * for the answer in one append, with every check and refusal POST …/messages has, and nothing stored
 * when either is refused.
 */
describe.skipIf(!gate.available)(
  `a run posted with its message${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({ env: { PLAN_FREE_MESSAGES_PER_MONTH: '3' } });
    });
    afterAll(async () => h?.close());

    async function ownerWithThread(body: Record<string, unknown> = {}) {
      const owner = await h.owner();
      const headers = { authorization: owner.authorization };
      const created = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers,
          payload: { name: 'Bakery', description: 'Bread', instructions: 'Be kind', ...body },
        })
      ).json();
      const thread = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers,
          payload: { assistant_id: created.assistant_id },
        })
      ).json();
      return {
        headers,
        id: created.assistant_id as number,
        externalId: created.openai_assistant_id as string,
        shareToken: '',
        threadId: thread.thread_id as string,
      };
    }
    const send = (
      who: { headers: Record<string, string>; externalId: string; threadId: string },
      additional: unknown,
    ) =>
      h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${who.threadId}/runs`,
        headers: who.headers,
        payload: { assistant_id: who.externalId, additional_messages: additional },
      });
    const settle = async (who: { headers: Record<string, string>; threadId: string }, runId: string) =>
      expect
        .poll(
          async () =>
            (await h.app.inject({ url: `/api/v1/threads/${who.threadId}/runs/${runId}`, headers: who.headers })).json()
              .status,
          { timeout: 30_000, interval: 50 },
        )
        .toMatch(/completed|failed|expired/);
    const listed = async (who: { headers: Record<string, string>; threadId: string }) =>
      (await h.app.inject({ url: `/api/v1/threads/${who.threadId}/messages`, headers: who.headers })).json()
        .data as MessageDto[];
    const threadEvents = async (threadId: string) => h.platform.eventStore.readStream(streamIds.thread(threadId));

    it('posts the message and asks for the answer in one append, and answers it', async () => {
      const owner = await ownerWithThread();
      const response = await send(owner, [{ role: 'user', content: 'When do you bake?' }]);
      expect(response.statusCode, response.body).toBe(201);
      const run = response.json();
      expect(run.status).toBe('queued');
      expect(run.user_message).toMatchObject({
        role: 'user',
        thread_id: owner.threadId,
        content: [{ text: { value: 'When do you bake?' } }],
      });

      const events = await threadEvents(owner.threadId);
      const posted = events.find((e) => e.type === 'MessagePosted')!;
      const requested = events.find((e) => e.type === 'RunRequested')!;
      // One append: one transaction, the message first.
      expect(posted.position.commit).toBe(requested.position.commit);
      expect(posted.streamPosition + 1n).toBe(requested.streamPosition);

      await settle(owner, run.run_id);
      const messages = await listed(owner);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(messages[0]!.id).toBe(run.user_message.id);
      expect(messages[1]!.run_id).toBe(run.run_id);
    });

    it.each([
      ['an assistant message', [{ role: 'assistant', content: 'I am the bot' }], chatMessages.onlyUserMessages],
      [
        'two messages',
        [
          { role: 'user', content: 'One' },
          { role: 'user', content: 'Two' },
        ],
        chatMessages.oneMessagePerRun,
      ],
      ['an empty message', [{ role: 'user', content: '   ' }], chatMessages.emptyMessage],
      ['no message in the list', [], chatMessages.emptyMessage],
      [
        'a message of 101 words',
        [{ role: 'user', content: Array.from({ length: 101 }, () => 'word').join(' ') }],
        'Maximum 100 words allowed',
      ],
      ['not a list', 'hello', chatMessages.onlyUserMessages],
    ])('refuses %s with the spec text and stores nothing', async (_label, additional, text) => {
      const owner = await ownerWithThread();
      const response = await send(owner, additional);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.body).toContain(text);
      expect(await threadEvents(owner.threadId)).toHaveLength(1); // ThreadStarted only
    });

    it("refuses another assistant's id before counting anything, and a foreign thread as not found", async () => {
      const owner = await ownerWithThread();
      const other = await ownerWithThread();
      // The other assistant is met first, so the service reads it beside the thread: it must still be refused.
      const met = await send(other, [{ role: 'user', content: 'Hello' }]);
      expect(met.statusCode, met.body).toBe(201);
      await settle(other, met.json().run_id);
      const otherEvents = (await threadEvents(other.threadId)).length;
      const wrongAssistant = await send({ ...owner, externalId: other.externalId }, [
        { role: 'user', content: 'Hello' },
      ]);
      expect(wrongAssistant.statusCode).toBe(404);
      const foreignThread = await send({ ...owner, threadId: other.threadId }, [{ role: 'user', content: 'Hello' }]);
      expect(foreignThread.statusCode).toBe(404);
      expect(await threadEvents(owner.threadId)).toHaveLength(1);
      expect(await threadEvents(other.threadId)).toHaveLength(otherEvents);
    });

    it("keeps the conversation's chat_limit: the message over it is refused with its run, and recorded for the limits page", async () => {
      const owner = await ownerWithThread({ chat_limit: 1 });
      const first = await send(owner, [{ role: 'user', content: 'First question' }]);
      expect(first.statusCode).toBe(201);
      await settle(owner, first.json().run_id);
      const second = await send(owner, [{ role: 'user', content: 'Second question' }]);
      expect(second.statusCode).toBe(403);
      expect(second.json().detail).toBe(chatMessages.chatLimitReached(1));
      const events = await threadEvents(owner.threadId);
      expect(
        events.filter((e) => e.type === 'MessagePosted' && (e.data as { role: string }).role === 'user'),
      ).toHaveLength(1);
      expect(events.filter((e) => e.type === 'RunRequested')).toHaveLength(1);
    });

    it("counts the message against the owner's monthly quota, and refuses the run with it once the quota is spent", async () => {
      const owner = await ownerWithThread();
      for (let i = 0; i < 3; i++) {
        const response = await send(owner, [{ role: 'user', content: `Question ${i}` }]);
        expect(response.statusCode, response.body).toBe(201);
        await settle(owner, response.json().run_id);
      }
      const over = await send(owner, [{ role: 'user', content: 'One too many' }]);
      expect(over.statusCode).toBe(403);
      expect(over.json().detail).toBe(chatMessages.monthlyLimitReached(3));
      expect((await listed(owner)).filter((m) => m.role === 'user')).toHaveLength(3);
    });

    it("takes a visitor's message with the run on the public chat, with the visitor's session", async () => {
      const owner = await ownerWithThread();
      const shareToken = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${owner.id}/generate-share-token`,
          headers: owner.headers,
        })
      ).json().share_token as string;
      const session = 'b'.repeat(64);
      const thread = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/public',
          payload: { assistant_id: owner.id, share_token: shareToken, session_token: session },
        })
      ).json();
      const run = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/public/${thread.thread_id}/runs`,
        payload: {
          assistant_id: owner.externalId,
          session_token: session,
          additional_messages: [{ role: 'user', content: 'Are you open today?' }],
        },
      });
      expect(run.statusCode, run.body).toBe(201);
      expect(run.json().user_message.content[0].text.value).toBe('Are you open today?');
      const stranger = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/public/${thread.thread_id}/runs`,
        payload: {
          assistant_id: owner.externalId,
          session_token: 'c'.repeat(64),
          additional_messages: [{ role: 'user', content: 'Let me in' }],
        },
      });
      expect(stranger.statusCode).toBe(404);
    });
  },
);

/** An answer that never comes (until the run's deadline): the thread keeps a run under way. */
const pending: AnswerProvider = {
  name: 'pending',
  async *answer() {
    await new Promise<void>(() => {});
    yield* [];
  },
};

describe.skipIf(!gate.available)(
  `a run posted with its message while an answer is under way${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({
        answerProvider: pending,
        env: { RUN_DEADLINE_SECONDS: '30', RUN_SWEEP_INTERVAL_MS: '0' },
      });
    });
    afterAll(async () => h?.close());

    it('stores neither the message nor the run, and says the assistant is still answering', async () => {
      const owner = await h.owner();
      const headers = { authorization: owner.authorization };
      const created = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers,
          payload: { name: 'Bakery', description: 'Bread', instructions: 'Be kind' },
        })
      ).json();
      const threadId = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers,
          payload: { assistant_id: created.assistant_id },
        })
      ).json().thread_id as string;
      const send = (content: string) =>
        h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers,
          payload: { assistant_id: created.openai_assistant_id, additional_messages: [{ role: 'user', content }] },
        });
      expect((await send('First question')).statusCode).toBe(201);
      const overlapping = await send('Second question');
      expect(overlapping.statusCode).toBe(409);
      expect(overlapping.json().detail).toBe(chatMessages.runActive);
      const events = await h.platform.eventStore.readStream(streamIds.thread(threadId));
      expect(events.filter((e) => e.type === 'MessagePosted').map((e) => (e.data as { text: string }).text)).toEqual([
        'First question',
      ]);
      expect(events.filter((e) => e.type === 'RunRequested')).toHaveLength(1);
    });
  },
);
