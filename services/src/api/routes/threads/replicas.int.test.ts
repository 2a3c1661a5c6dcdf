import type { MessageDto } from '@kesher/contracts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

interface SseEvent {
  event: string;
  id?: string;
  data: { text?: string; message?: MessageDto | null };
}
const sseEvents = (body: string): SseEvent[] =>
  body
    .split('\n\n')
    .filter((block) => block.includes('event:'))
    .map((block) => {
      const fields = Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return { event: fields.event!, id: fields.id, data: JSON.parse(fields.data ?? '{}') };
    });

/**
 * Issue 23 item 2: two API processes behind a load balancer, on one database. A chat turn sent to one
 * of them is read back at once from the other — the run, the messages, the run's stream — with nothing
 * of the turn in either process's memory and the read models deliberately slow (they batch for a second):
 * the chat's reads answer from the thread's stream, so they never 404 nor show a turn half-done.
 */
describe.skipIf(!gate.available)(
  `chat on two API replicas${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let a: FastifyInstance;
    let b: FastifyInstance;
    beforeAll(async () => {
      // Four processes' pools on one shared server: small ones, so the test does not take every connection.
      h = await createApiHarness({
        topology: 'split',
        // What each replica answers while the projector lags is the point: no waiting for it here.
        settleReads: false,
        env: { PROJECTOR_BATCH_DELAY_MS: '1000', DATABASE_POOL_SIZE: '6' },
      });
      a = h.app;
      b = await h.replica();
    });
    afterAll(async () => h?.close());

    async function call(app: FastifyInstance, options: InjectOptions, status = 200) {
      const response = await app.inject(options);
      expect(response.statusCode, `${options.method ?? 'GET'} ${String(options.url)}: ${response.body}`).toBe(status);
      return response;
    }

    it("answers the owner's turn sent to one replica from the other at once: the run, the messages, the stream", async () => {
      const owner = await h.owner();
      const headers = { authorization: owner.authorization };
      const assistant = (
        await call(
          a,
          {
            method: 'POST',
            url: '/api/v1/assistants/',
            headers,
            payload: { name: 'Bakery', description: 'Bread', instructions: 'Be kind' },
          },
          201,
        )
      ).json();
      const threadId = (
        await call(
          a,
          { method: 'POST', url: '/api/v1/threads/', headers, payload: { assistant_id: assistant.assistant_id } },
          201,
        )
      ).json().thread_id as string;

      const sent = (
        await call(
          a,
          {
            method: 'POST',
            url: `/api/v1/threads/${threadId}/runs`,
            headers,
            payload: {
              assistant_id: assistant.openai_assistant_id,
              additional_messages: [{ role: 'user', content: 'When do you open?' }],
            },
          },
          201,
        )
      ).json();
      const runId = sent.run_id as string;
      expect(sent.user_message).toMatchObject({ role: 'user', content: [{ text: { value: 'When do you open?' } }] });
      // The other replica, at once: the projector has not applied the turn yet (it waits a second to batch).
      const run = (await call(b, { url: `/api/v1/threads/${threadId}/runs/${runId}`, headers })).json();
      expect(run).toMatchObject({
        id: runId,
        thread_id: threadId,
        assistant_id: assistant.openai_assistant_id,
        expires_at: sent.expires_at,
        created_at: sent.created_at,
      });
      expect(['queued', 'in_progress', 'completed']).toContain(run.status);
      const messages = (await call(b, { url: `/api/v1/threads/${threadId}/messages`, headers })).json()
        .data as MessageDto[];
      expect(messages[0]).toEqual(sent.user_message);

      const stream = sseEvents(
        (await call(b, { url: `/api/v1/threads/${threadId}/runs/${runId}/stream`, headers })).body,
      );
      expect(stream.at(-1)?.event, JSON.stringify(stream.at(-1))).toBe('completed');
      const answer = stream.at(-1)!.data.message!;
      expect(answer).toMatchObject({ role: 'assistant', run_id: runId, thread_id: threadId });
      // Back on the first replica, at once: the answer as the stream ended with it, and the run completed.
      const after = (await call(a, { url: `/api/v1/threads/${threadId}/messages`, headers })).json()
        .data as MessageDto[];
      expect(after).toEqual([sent.user_message, answer]);
      expect((await call(a, { url: `/api/v1/threads/${threadId}/runs/${runId}`, headers })).json()).toMatchObject({
        status: 'completed',
        message_id: answer.id,
      });

      // The next turn, asked of the other replica, sees the first one settled (one active run per thread).
      const next = await call(
        b,
        {
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers,
          payload: {
            assistant_id: assistant.openai_assistant_id,
            additional_messages: [{ role: 'user', content: 'And on Friday?' }],
          },
        },
        201,
      );
      // There at once on the first replica; its answer may be there already too (the built-in engine answers
      // within milliseconds), so the message is found by its id rather than taken to be the last.
      const listed = (await call(a, { url: `/api/v1/threads/${threadId}/messages`, headers })).json()
        .data as MessageDto[];
      expect(listed.find((message) => message.id === next.json().user_message.id)).toEqual(next.json().user_message);
    });

    it("does the same for a visitor through a share link, and ends the visitor's conversation on both replicas the moment the link is rotated", async () => {
      const owner = await h.owner();
      const headers = { authorization: owner.authorization };
      const assistant = (
        await call(
          a,
          {
            method: 'POST',
            url: '/api/v1/assistants/',
            headers,
            payload: { name: 'Florist', description: 'Flowers', instructions: 'Be kind' },
          },
          201,
        )
      ).json();
      const shareToken = (
        await call(a, {
          method: 'POST',
          url: `/api/v1/assistants/${assistant.assistant_id}/generate-share-token`,
          headers,
        })
      ).json().share_token as string;
      const session = 'e'.repeat(64);
      const threadId = (
        await call(
          a,
          {
            method: 'POST',
            url: '/api/v1/threads/public',
            payload: { assistant_id: assistant.assistant_id, share_token: shareToken, session_token: session },
          },
          201,
        )
      ).json().thread_id as string;
      const base = `/api/v1/threads/public/${threadId}`;

      const sent = (
        await call(
          b,
          {
            method: 'POST',
            url: `${base}/runs`,
            payload: {
              assistant_id: assistant.openai_assistant_id,
              additional_messages: [{ role: 'user', content: 'Roses?' }],
              session_token: session,
            },
          },
          201,
        )
      ).json();
      const runId = sent.run_id as string;
      expect(sent.user_message).toMatchObject({ role: 'user', content: [{ text: { value: 'Roses?' } }] });
      expect((await call(a, { url: `${base}/runs/${runId}?session_token=${session}` })).json()).toMatchObject({
        id: runId,
        thread_id: threadId,
      });
      expect((await call(a, { url: `${base}/messages?session_token=${session}` })).json().data[0]).toEqual(
        sent.user_message,
      );
      const stream = sseEvents((await call(a, { url: `${base}/runs/${runId}/stream?session_token=${session}` })).body);
      expect(stream.at(-1)?.event, JSON.stringify(stream.at(-1))).toBe('completed');
      expect((await call(b, { url: `${base}/messages?session_token=${session}` })).json().data).toEqual([
        sent.user_message,
        stream.at(-1)!.data.message,
      ]);
      // Another session holding the thread's id reads nothing, on either replica.
      await call(b, { url: `${base}/messages?session_token=${'f'.repeat(64)}` }, 404);

      // The owner rotates the link on one replica; the other refuses the old conversation at once (its reads 404, its writes 403).
      await call(a, {
        method: 'POST',
        url: `/api/v1/assistants/${assistant.assistant_id}/rotate-share-token`,
        headers,
      });
      expect((await call(b, { url: `${base}/messages?session_token=${session}` }, 404)).json()).toMatchObject({
        detail: 'Invalid or expired share link.',
      });
      await call(
        b,
        { method: 'POST', url: `${base}/messages`, payload: { content: 'Still there?', session_token: session } },
        403,
      );
    });
  },
);
