import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../chat/openai.provider.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../testing/openai-stand-in.js';
import { postgresAvailability } from '../../testing/test-database.js';

const gate = await postgresAvailability();

/** Issue 26 with a model: the matched Q&A goes first in what is sent, with the instruction to prefer it. */
describe.skipIf(!gate.available)(
  `curated answers with a model (OpenAI stand-in)${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIn: OpenAiStandIn;
    beforeAll(async () => {
      standIn = await startOpenAiStandIn();
      h = await createApiHarness({
        answerProvider: createOpenAiProvider({
          apiKey: 'sk-test',
          baseURL: standIn.baseURL,
          model: 'gpt-test',
          maxRetries: 0,
          timeoutMs: 30_000,
        }),
      });
    });
    afterAll(async () => {
      await h?.close();
      await standIn?.close();
    });

    it('sends the owner’s answer as the first knowledge passage, and nothing of it for an unrelated question', async () => {
      const auth = { authorization: (await h.owner()).authorization };
      const assistant = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: auth,
          payload: { name: 'Salon', description: 'A hair salon', instructions: 'Answer briefly' },
        })
      ).json();
      const added = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${assistant.assistant_id}/qa`,
        headers: auth,
        payload: { question: 'כמה עולה תספורת?', answer: 'תספורת עולה 80 ₪.' },
      });
      expect(added.statusCode).toBe(200);

      async function ask(question: string) {
        standIn.script({ kind: 'stream', pieces: ['OK [1].'] });
        const before = standIn.requests.length;
        const threadId = (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/threads/',
            headers: auth,
            payload: { assistant_id: assistant.assistant_id },
          })
        ).json().thread_id;
        const run = await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers: auth,
          payload: {
            assistant_id: assistant.openai_assistant_id,
            additional_messages: [{ role: 'user', content: question }],
          },
        });
        const stream = await h.app.inject({
          url: `/api/v1/threads/${threadId}/runs/${run.json().run_id}/stream`,
          headers: auth,
        });
        expect(stream.body).toContain('event: completed');
        expect(standIn.requests.length).toBe(before + 1);
        return { system: standIn.requests.at(-1)!.messages[0]!.content as string, body: stream.body };
      }

      const matched = await ask('What does a haircut cost?');
      expect(matched.system).toContain(
        "[1] is the owner's own answer to this question: answer with it, and prefer it over every other passage where they differ.",
      );
      expect(matched.system).toMatch(
        /KNOWLEDGE:\n.*\n\[1\] ANSWER FROM THE OWNER to the question "כמה עולה תספורת\?"\nתספורת עולה 80 ₪\./,
      );
      expect(matched.body).toContain('Answer from the owner');

      const unrelated = await ask('Where are you located?');
      expect(unrelated.system).not.toContain('ANSWER FROM THE OWNER');
    });
  },
);
