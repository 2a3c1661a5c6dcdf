import { streamIds, type MessageDto } from '@kesher/contracts';
import { curatedAnswersProjection } from '@kesher/projections/curated-answers/curated-answers.projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noAnswerTexts } from '../../../chat/builtin.provider.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/**
 * Issue 26 on the built-in engine, through the API: a question the knowledge cannot answer, the owner's
 * correction from that conversation, then paraphrases in English and Hebrew answered with the owner's
 * text, a near-miss left alone, the Q&A owner-isolated, its CSV round trip, its hits, its deletion taking
 * effect at once, and its read model rebuilt from the log.
 */
describe.skipIf(!gate.available)(`curated answers${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let auth: { authorization: string };
  let assistant: { assistant_id: number; openai_assistant_id: string };
  const correction = 'A haircut costs 80 ILS, washing included.';

  beforeAll(async () => {
    h = await createApiHarness({ env: { PLAN_FREE_MAX_ASSISTANTS: '3' } });
    auth = { authorization: (await h.owner()).authorization };
    assistant = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Salon', description: 'A hair salon', instructions: 'Answer briefly' },
      })
    ).json();
  });
  afterAll(async () => h?.close());

  /** One question in a new conversation: the answer as the chat shows it. */
  async function ask(question: string): Promise<{ threadId: string; message: MessageDto }> {
    const threadId = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: auth,
        payload: { assistant_id: assistant.assistant_id },
      })
    ).json().thread_id as string;
    const run = await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${threadId}/runs`,
      headers: auth,
      payload: {
        assistant_id: assistant.openai_assistant_id,
        additional_messages: [{ role: 'user', content: question }],
      },
    });
    expect(run.statusCode).toBeLessThan(300);
    const stream = await h.app.inject({
      url: `/api/v1/threads/${threadId}/runs/${run.json().run_id}/stream`,
      headers: auth,
    });
    const completed = stream.body.split('\n\n').find((frame) => frame.includes('event: completed'));
    expect(completed, stream.body).toBeDefined();
    return {
      threadId,
      message: (
        JSON.parse(
          completed!
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6),
        ) as { message: MessageDto }
      ).message,
    };
  }
  const qaUrl = () => `/api/v1/assistants/${assistant.assistant_id}/qa`;

  it('a correction from the conversation answers paraphrases in both languages, cited as the owner’s, and leaves other questions alone', async () => {
    const first = await ask('How much does a haircut cost?');
    expect(noAnswerTexts).toContain(first.message.content[0]?.text.value);

    const added = await h.app.inject({
      method: 'POST',
      url: qaUrl(),
      headers: auth,
      payload: { question: 'How much does a haircut cost?', answer: correction, thread_id: first.threadId },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      qa_id: expect.stringMatching(/^qa_/),
      question: 'How much does a haircut cost?',
      answer: correction,
      hits_30d: 0,
    });
    const qaId = added.json().qa_id as string;

    const english = await ask("What's the price of a haircut?");
    expect(JSON.stringify(english.message)).toContain(correction);
    expect(english.message.sources).toEqual([
      expect.objectContaining({ file_id: qaId, filename: 'Answer from the owner' }),
    ]);
    const hebrew = await ask('כמה עולה תספורת?');
    expect(JSON.stringify(hebrew.message)).toContain(correction);

    const other = await ask('How much does a manicure cost?');
    expect(JSON.stringify(other.message)).not.toContain(correction);

    await expect
      .poll(async () => (await h.app.inject({ url: qaUrl(), headers: auth })).json()[0]?.hits_30d, {
        timeout: 30_000,
        interval: 50,
      })
      .toBe(2);
  });

  it('is the owner’s alone: another owner gets 404 for the list, an edit and a delete', async () => {
    const [qa] = (await h.app.inject({ url: qaUrl(), headers: auth })).json() as { qa_id: string }[];
    const stranger = { authorization: (await h.owner()).authorization };
    expect((await h.app.inject({ url: qaUrl(), headers: stranger })).statusCode).toBe(404);
    expect(
      (
        await h.app.inject({
          method: 'PUT',
          url: `${qaUrl()}/${qa!.qa_id}`,
          headers: stranger,
          payload: { question: 'x', answer: 'y' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await h.app.inject({ method: 'DELETE', url: `${qaUrl()}/${qa!.qa_id}`, headers: stranger })).statusCode,
    ).toBe(404);
    expect((await h.app.inject({ url: `${qaUrl()}/export`, headers: stranger })).statusCode).toBe(404);
    // Bad input: a clear 4xx with the text, never 5xx.
    const empty = await h.app.inject({
      method: 'POST',
      url: qaUrl(),
      headers: auth,
      payload: { question: ' ', answer: 'a' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe('Please write both the question and the answer.');
    expect(
      (
        await h.app.inject({
          method: 'PUT',
          url: `${qaUrl()}/not-an-id`,
          headers: auth,
          payload: { question: 'q', answer: 'a' },
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (await h.app.inject({ method: 'POST', url: `${qaUrl()}/import`, headers: auth, payload: { csv: 'a,b,c\n' } }))
        .statusCode,
    ).toBe(400);
  });

  it('exports and imports CSV, round trip', async () => {
    const rows = [
      { question: 'האם אתם פתוחים בשבת?', answer: 'לא, בשבת סגור.\nבשישי עד 14:00.' },
      { question: 'Do you sell "gift cards"?', answer: 'Yes, from 100 ILS, at the desk.' },
    ];
    const csv = `question,answer\r\n${rows.map((r) => [r.question, r.answer].map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\r\n')}\r\n`;
    const imported = await h.app.inject({ method: 'POST', url: `${qaUrl()}/import`, headers: auth, payload: { csv } });
    expect(imported.json()).toEqual({ imported: 2, skipped: 0 });
    const exported = await h.app.inject({ url: `${qaUrl()}/export`, headers: auth });
    expect(exported.headers['content-type']).toMatch(/text\/csv/);
    // Importing the same rows again adds nothing; importing the export into another assistant copies the list.
    expect(
      (
        await h.app.inject({ method: 'POST', url: `${qaUrl()}/import`, headers: auth, payload: { csv: exported.body } })
      ).json(),
    ).toEqual({ imported: 0, skipped: 3 });
    const copy = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Salon 2', description: 'A hair salon', instructions: 'Answer' },
      })
    ).json().assistant_id as number;
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${copy}/qa/import`,
          headers: auth,
          payload: { csv: exported.body },
        })
      ).json(),
    ).toEqual({ imported: 3, skipped: 0 });
    const pairs = async (url: string) =>
      ((await h.app.inject({ url, headers: auth })).json() as { question: string; answer: string }[])
        .map(({ question, answer }) => ({ question, answer }))
        .sort((a, b) => a.question.localeCompare(b.question));
    const list = await pairs(qaUrl());
    expect(list).toEqual(expect.arrayContaining(rows));
    expect(await pairs(`/api/v1/assistants/${copy}/qa`)).toEqual(list);
    expect((await h.app.inject({ url: `${qaUrl()}?search=שבת`, headers: auth })).json()).toHaveLength(1);
    expect((await ask('בשבת אתם פתוחים?')).message.content[0]?.text.value).toContain('בשבת סגור');
  });

  it("holds the plan's count: an import past it records nothing and says so", async () => {
    const salon = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: auth,
        payload: { name: 'Salon 3', description: 'A hair salon', instructions: 'Answer' },
      })
    ).json().assistant_id as number;
    const csv = Array.from({ length: 51 }, (_, i) => `Question ${i},Answer ${i}`).join('\n');
    const refused = await h.app.inject({
      method: 'POST',
      url: `/api/v1/assistants/${salon}/qa/import`,
      headers: auth,
      payload: { csv },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(
      "This assistant has reached its plan's limit of 50 questions and answers. Delete some or upgrade the plan to add more.",
    );
    expect((await h.app.inject({ url: `/api/v1/assistants/${salon}/qa`, headers: auth })).json()).toEqual([]);
  });

  it('a deleted Q&A stops answering at once, and the read model is rebuilt from the log', async () => {
    const qa = (
      (await h.app.inject({ url: qaUrl(), headers: auth })).json() as { qa_id: string; answer: string }[]
    ).find((row) => row.answer === correction)!;
    const assistantId = (
      await h.platform.sql.query<{ id: string }>(`SELECT id FROM assistants WHERE numeric_id = $1`, [
        assistant.assistant_id,
      ])
    ).rows[0]!.id;
    const snapshot = async () =>
      (
        await h.platform.sql.query(
          `SELECT qa_id, question, answer, created_at FROM curated_answers WHERE assistant_id = $1 ORDER BY qa_id`,
          [assistantId],
        )
      ).rows;

    const before = await snapshot();
    await h.platform.sql.query(`DELETE FROM curated_answers WHERE assistant_id = $1`, [assistantId]);
    await curatedAnswersProjection.apply(
      h.platform.sql,
      await h.platform.eventStore.readStream(streamIds.assistant(assistantId)),
    );
    expect(await snapshot()).toEqual(before);

    expect((await h.app.inject({ method: 'DELETE', url: `${qaUrl()}/${qa.qa_id}`, headers: auth })).statusCode).toBe(
      200,
    );
    expect(JSON.stringify((await ask('What is the price of a haircut?')).message)).not.toContain(correction);
  });
});
