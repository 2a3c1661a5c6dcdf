import { redirectMarker, type InboxEntryDto, type MessageDto, type ThreadDto } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/** A Sales Mode answer as the engines write it: the lead-in, then the redirect command on its own line. */
const ANSWER = `The city bike costs 2,400 ILS.\nYou can continue here:\n${redirectMarker('https://shop.example/products/city-bike')}`;
const salesProvider: AnswerProvider = {
  name: 'sales-stand-in',
  async *answer() {
    yield { kind: 'text', text: ANSWER };
  },
};

/**
 * Issue 22 items 5 and 16: what the owner's lists show of a conversation — Chat History and the one
 * inbox. The redirect command is the chat renderer's (a Visit Link button), never a list's text; a
 * conversation nobody renamed is titled after its first message, not "Untitled Conversation".
 */
describe.skipIf(!gate.available)(
  `the inbox and Chat History as displayed${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let auth: { authorization: string };
    let assistantId: number;
    let threadId: string;

    beforeAll(async () => {
      h = await createApiHarness({ answerProvider: salesProvider });
      const owner = await h.owner();
      auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Bike shop', description: 'Bikes', instructions: 'Answer' },
      });
      assistantId = created.json().assistant_id;
      const externalId = created.json().openai_assistant_id as string;
      threadId = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers: auth,
          payload: { assistant_id: assistantId },
        })
      ).json().thread_id;
      const run = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${threadId}/runs`,
        headers: auth,
        payload: {
          assistant_id: externalId,
          additional_messages: [{ role: 'user', content: '  How much is\nthe city bike?  ' }],
        },
      });
      expect(run.statusCode).toBe(201);
      const runId = run.json().run_id as string;
      // A hook cannot use expect.poll: the run is asked until it settles.
      for (let status = ''; status !== 'completed';) {
        status = (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json()
          .status;
        if (status === 'failed' || status === 'expired')
          throw new Error(
            `the run ${status}: ${JSON.stringify((await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json().last_error)}`,
          );
        if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    afterAll(async () => h?.close());

    it('GET /inbox shows the last message without the redirect command, titled from the first message', async () => {
      await expect
        .poll(
          async () =>
            ((await h.app.inject({ url: '/api/v1/inbox', headers: auth })).json().data as InboxEntryDto[]).find(
              (e) => e.thread_id === threadId,
            )?.last_message,
          {
            timeout: 30_000,
            interval: 50,
          },
        )
        .toBe('The city bike costs 2,400 ILS. You can continue here:');
      const entry = ((await h.app.inject({ url: '/api/v1/inbox', headers: auth })).json().data as InboxEntryDto[]).find(
        (e) => e.thread_id === threadId,
      )!;
      expect(entry.title).toBe('How much is the city bike?');
      expect(JSON.stringify(entry)).not.toContain('REDIRECT');
    });

    it('Chat History titles the conversation from its first message until it is renamed', async () => {
      const list = async () =>
        (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/threads`, headers: auth })).json() as ThreadDto[];
      expect((await list()).find((t) => t.id === threadId)?.title).toBe('How much is the city bike?');
      const renamed = await h.app.inject({
        method: 'PATCH',
        url: `/api/v1/threads/${threadId}`,
        headers: auth,
        payload: { title: 'Bike price' },
      });
      expect(renamed.statusCode).toBe(200);
      await expect
        .poll(async () => (await list()).find((t) => t.id === threadId)?.title, { timeout: 30_000, interval: 50 })
        .toBe('Bike price');
    });

    it('the conversation itself keeps the command for the renderer (the Visit Link button)', async () => {
      const messages = (await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth })).json()
        .data as MessageDto[];
      expect(messages.at(-1)?.content[0]?.text.value).toBe(ANSWER);
    });
  },
);
