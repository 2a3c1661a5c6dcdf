import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinProvider } from '../../chat/builtin.provider.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { startEmbeddingsStandIn, type EmbeddingsStandIn } from './testing/embeddings-stand-in.js';

const postgres = await postgresAvailability();
const within = { timeout: 60_000, interval: 100 };

function multipart(filename: string, text: string) {
  const boundary = `----kesher${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.skipIf(!postgres.available)(
  `embeddings as the workers run them (OPENAI_EMBEDDING_MODEL)${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIn: EmbeddingsStandIn;

    beforeAll(async () => {
      standIn = await startEmbeddingsStandIn({ model: 'stand-in-embed' });
      // Answers by the built-in engine; the key, address and model configure the embeddings.
      h = await createApiHarness({
        env: {
          OPENAI_API_KEY: standIn.apiKey,
          OPENAI_BASE_URL: standIn.baseURL,
          OPENAI_EMBEDDING_MODEL: 'stand-in-embed',
        },
        answerProvider: createBuiltinProvider(),
      });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIn?.close();
    });

    it(
      "embeds an uploaded file's passages, retrieves by them, and forgets them with the file",
      { timeout: 120_000 },
      async () => {
        const owner = await h.owner();
        const auth = { authorization: owner.authorization };
        const id = (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/assistants/',
            headers: auth,
            payload: { name: 'Crumb', description: 'Bakery', instructions: 'Answer' },
          })
        ).json().assistant_id as number;
        const { payload, headers } = multipart(
          'prices.txt',
          'Price list\n\nA sourdough loaf costs 8.50 dollars. A cheesecake costs 32 dollars.',
        );
        const uploaded = await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${id}/upload_file`,
          headers: { ...headers, ...auth },
          payload,
        });
        expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `/api/v1/assistants/${id}/files`, headers: auth })).json()[0]?.status,
            within,
          )
          .toBe('ready');
        const file = (await h.app.inject({ url: `/api/v1/assistants/${id}/files`, headers: auth })).json()[0] as {
          id: string;
        };
        const assistantId = (
          await h.platform.sql.query<{ assistant_id: string }>(
            `SELECT assistant_id FROM knowledge_files WHERE id = $1`,
            [file.id],
          )
        ).rows[0]!.assistant_id;
        const vectors = async () =>
          Number(
            (
              await h.platform.sql.query<{ n: string }>(
                `SELECT count(*)::text AS n FROM knowledge_embeddings WHERE assistant_id = $1 AND model = 'stand-in-embed'`,
                [assistantId],
              )
            ).rows[0]!.n,
          );

        // The workers' indexer embeds it shortly after it is ready.
        await expect.poll(vectors, within).toBeGreaterThan(0);
        expect(standIn.batches.length).toBeGreaterThan(0);
        const found = await h.workers.knowledge.retrieve({ assistantId, question: 'sourdogh lofe prise' });
        expect(found[0]?.fileId).toBe(file.id);

        expect(
          (await h.app.inject({ method: 'DELETE', url: `/api/v1/assistants/${id}/files/${file.id}`, headers: auth }))
            .statusCode,
        ).toBeLessThan(300);
        await expect.poll(vectors, within).toBe(0);
        expect(await h.workers.knowledge.retrieve({ assistantId, question: 'sourdogh lofe prise' })).toEqual([]);
      },
    );
  },
);
