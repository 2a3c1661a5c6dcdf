import { streamIds } from '@kesher/contracts';
import { threadQueries } from '@kesher/projections/threads/threads.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerProviderError, type AnswerProvider } from '../answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { threadViewOf } from './thread-view.js';

const gate = await postgresAvailability();

/** Answers citing a passage of its own making (so the answer has sources), or fails when asked to. */
const provider: AnswerProvider = {
  name: 'scripted',
  async *answer(request) {
    if (request.question.includes('fail')) throw new AnswerProviderError('The model is down');
    yield {
      kind: 'cited',
      passages: [
        {
          fileId: 'file-1',
          filename: 'prices.txt',
          sourceUrl: 'https://bakery.example/prices',
          section: 'Bread',
          text: 'Sourdough: 24 shekels.',
          score: 1,
        },
      ],
    };
    yield { kind: 'text', text: 'Sourdough costs 24 shekels.' };
  },
};

/**
 * The chat answers from the thread's stream (thread-view.ts) what it used to answer from the threads read
 * model: once the projector has caught up, both say exactly the same of one conversation — its messages
 * (order, roles, texts, runs, sources, seconds), its runs (status, error, answer, deadline, seconds) and the
 * thread (title, channel, visibility, link).
 */
describe.skipIf(!gate.available)(
  `thread view against the threads read model${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({ answerProvider: provider });
    });
    afterAll(async () => h?.close());

    it('folds a conversation into exactly the rows the read model holds for it', async () => {
      const owner = await h.owner();
      const headers = { authorization: owner.authorization };
      const assistant = (
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
          payload: { assistant_id: assistant.assistant_id },
        })
      ).json().thread_id as string;
      const runIds: string[] = [];
      for (const question of ['How much is the sourdough?', 'Please fail this one', 'And the challah?']) {
        const sent = await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers,
          payload: {
            assistant_id: assistant.openai_assistant_id,
            additional_messages: [{ role: 'user', content: question }],
          },
        });
        expect(sent.statusCode, sent.body).toBe(201);
        const runId = sent.json().run_id as string;
        runIds.push(runId);
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers })).json().status,
            { timeout: 30_000, interval: 50 },
          )
          .toMatch(/completed|failed/);
      }
      expect(
        (
          await h.app.inject({
            method: 'PATCH',
            url: `/api/v1/threads/${threadId}`,
            headers,
            payload: { title: '  Prices  ' },
          })
        ).statusCode,
      ).toBe(200);

      const reader = { ownerId: owner.accountId };
      const threads = threadQueries(h.platform.sql);
      const view = threadViewOf(await h.platform.eventStore.readStream(streamIds.thread(threadId)))!;
      expect(view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user', 'assistant']);
      expect(view.messages[1]!.sources).toEqual([
        { fileId: 'file-1', filename: 'prices.txt', sourceUrl: 'https://bakery.example/prices', section: 'Bread' },
      ]);
      expect([...view.runs.values()].map((r) => r.status)).toEqual(['completed', 'failed', 'completed']);
      // The read model gets there when the projector has applied the last of it; the view is there at once.
      await expect
        .poll(async () => threads.messages(reader, threadId), { timeout: 30_000, interval: 50 })
        .toEqual(view.messages);
      await expect
        .poll(async () => threads.thread(reader, threadId), { timeout: 30_000, interval: 50 })
        .toEqual(view.row);
      for (const runId of runIds) expect(await threads.run(reader, threadId, runId)).toEqual(view.runs.get(runId));
    });
  },
);
