import type { MessageDto } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

const page = {
  fileId: 'file-crawled-city-bike',
  filename: 'shop.example-products-city-bike-c3f920c5.html',
  sourceUrl: 'https://shop.example/products/city-bike',
  section: null,
};
/** An answer quoting one crawled page (the built-in engine says which passages it quoted this way). */
const quotingProvider: AnswerProvider = {
  name: 'quoting-stand-in',
  async *answer() {
    yield { kind: 'text', text: 'The city bike costs 2,400 ILS.' };
    yield { kind: 'cited', passages: [{ ...page, text: 'City bike: 2,400 ILS', score: 1 }] };
  },
};

/**
 * Issue 22 item 6: a crawled page's knowledge file has an internal name; the answer's sources carry the
 * page's title (from the crawler's read model) so the chat names the page, in the message list and in
 * the live answer's completed event alike.
 */
describe.skipIf(!gate.available)(
  `sources named by their page title${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let auth: { authorization: string };
    let threadId: string;
    let runId: string;

    beforeAll(async () => {
      h = await createApiHarness({ answerProvider: quotingProvider });
      const owner = await h.owner();
      auth = { authorization: owner.authorization };
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Bike shop', description: 'Bikes', instructions: 'Answer' },
      });
      const assistant = created.json() as { assistant_id: number; openai_assistant_id: string };
      // The crawler's read model as a commit leaves it (the page's row names the file made of it).
      await h.platform.sql.query(
        `INSERT INTO crawled_urls (id, assistant_id, owner_id, key, source_url, page_title, kind, filename, character_count, file_size, content_sha256, file_id,
                                 is_enabled, training_status, is_sales_page, crawl_id, committed_at)
       VALUES ('url_city_bike', 'asst_x', $1, 'shop.example/products/city-bike', $2, '  City Bike — Harbour Cycles ', 'html', $3, 100, 100, 'sha', $4, true, 'trained', false, 'crawl_1', now())`,
        [owner.accountId, page.sourceUrl, page.filename, page.fileId],
      );
      threadId = (
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
          additional_messages: [{ role: 'user', content: 'How much is the city bike?' }],
        },
      });
      runId = run.json().run_id;
    });
    afterAll(async () => h?.close());

    it('the live answer and the message list name the page by its title, keeping its address', async () => {
      const stream = await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}/stream`, headers: auth });
      const completed = stream.body.split('\n\n').find((frame) => frame.includes('event: completed'));
      expect(completed).toBeDefined();
      const live = JSON.parse(
        completed!
          .split('\n')
          .find((line) => line.startsWith('data: '))!
          .slice(6),
      ) as { message: MessageDto };
      expect(live.message.sources).toEqual([
        {
          file_id: page.fileId,
          filename: page.filename,
          source_url: page.sourceUrl,
          section: null,
          title: 'City Bike — Harbour Cycles',
        },
      ]);

      const list = (await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth })).json()
        .data as MessageDto[];
      expect(list.at(-1)?.sources).toEqual(live.message.sources);
    });
  },
);
