import { parseRedirect, streamIds, type MessageDto } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { kafkaAvailability } from '../../../testing/kafka.js';
import { postgresAvailability } from '../../../testing/test-database.js';
import { toMessage, topicFor } from '../../../platform/bus/relayed-event.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../../testing/openai-stand-in.js';

const gate = await postgresAvailability();

const FACTS = [
  'Opening hours: the Kesher bakery is open Sunday to Thursday, 7:00 to 19:00.',
  'The sourdough loaf costs 24 shekels.',
  'שעות הפתיחה של המאפייה: ראשון עד חמישי, 7:00 עד 19:00.',
  '',
].join('\n');

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

type Owner = { authorization: string; accountId: string; id: number; externalId: string };

async function assistantWithFacts(h: ApiHarness, body: Record<string, unknown> = {}): Promise<Owner> {
  const owner = await h.owner();
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/assistants/',
    headers: { authorization: owner.authorization },
    payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer from the files', ...body },
  });
  const assistant = {
    ...owner,
    id: created.json().assistant_id as number,
    externalId: created.json().openai_assistant_id as string,
  };
  const { payload, headers } = multipart('bakery.txt', FACTS);
  const file = (
    await h.app.inject({
      method: 'POST',
      url: `/api/v1/assistants/${assistant.id}/upload_file`,
      headers: { ...headers, authorization: owner.authorization },
      payload,
    })
  ).json();
  await expect
    .poll(
      async () =>
        (
          await h.app.inject({
            url: `/api/v1/assistants/${assistant.id}/files`,
            headers: { authorization: owner.authorization },
          })
        ).json()[0]?.status,
      { timeout: 30_000, interval: 50 },
    )
    .toBe('ready');
  expect(file.filename).toBe('bakery.txt');
  return assistant;
}

/** Posts a question, starts a run and polls it (as the spec's chat does) until it settles. */
async function ask(h: ApiHarness, owner: Owner, threadId: string, content: string) {
  const auth = { authorization: owner.authorization };
  const posted = await h.app.inject({
    method: 'POST',
    url: `/api/v1/threads/${threadId}/messages`,
    headers: auth,
    payload: { content },
  });
  expect(posted.statusCode).toBe(201);
  const run = await h.app.inject({
    method: 'POST',
    url: `/api/v1/threads/${threadId}/runs`,
    headers: auth,
    payload: { assistant_id: owner.externalId },
  });
  expect(run.statusCode).toBe(201);
  const runId = run.json().run_id as string;
  const grant = run.json().stream_grant as string;
  await expect
    .poll(
      async () =>
        (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json().status,
      { timeout: 30_000, interval: 50 },
    )
    .toMatch(/completed|failed|expired/);
  const status = (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json();
  const list = (await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth })).json()
    .data as MessageDto[];
  return { runId, grant, status, answer: list.find((m) => m.run_id === runId), list };
}

async function newThread(h: ApiHarness, owner: Owner) {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/v1/threads/',
    headers: { authorization: owner.authorization },
    payload: { assistant_id: owner.id },
  });
  expect(response.statusCode).toBe(201);
  return response.json().thread_id as string;
}

function chatTests(
  label: string,
  options: { bus: 'in-process' | 'kafka'; topology?: 'one-process' | 'split' },
  available: { available: boolean; reason?: string },
) {
  describe.skipIf(!available.available)(
    `chat (${label})${available.available ? '' : ` (not run: ${available.reason})`}`,
    () => {
      let h: ApiHarness;
      beforeAll(async () => {
        h = await createApiHarness(options);
      });
      afterAll(async () => h?.close());

      it('answers from an uploaded file in English and in Hebrew, citing it', async () => {
        const owner = await assistantWithFacts(h);
        const threadId = await newThread(h, owner);

        const english = await ask(h, owner, threadId, 'What are the opening hours of the bakery?');
        expect(english.status).toMatchObject({ status: 'completed', last_error: null, message_id: english.answer?.id });
        expect(english.answer?.content[0]?.text.value).toContain('Sunday to Thursday, 7:00 to 19:00');
        // The source is shown once, by the chat's sources line: the text does not name it too.
        expect(english.answer?.content[0]?.text.value).not.toContain('bakery.txt');
        expect(english.answer?.sources).toEqual([expect.objectContaining({ filename: 'bakery.txt' })]);

        const hebrew = await ask(h, owner, threadId, 'מה שעות הפתיחה של המאפייה?');
        expect(hebrew.answer?.content[0]?.text.value).toContain('ראשון עד חמישי');
        expect(hebrew.answer?.content[0]?.text.value).not.toContain('bakery.txt');
        expect(hebrew.answer?.sources).toEqual([expect.objectContaining({ filename: 'bakery.txt' })]);

        const unknown = await ask(h, owner, threadId, 'Do you deliver to Haifa?');
        expect(unknown.answer?.content[0]?.text.value).toMatch(/couldn't find an answer/);
        expect(unknown.list.map((m) => m.role)).toEqual([
          'user',
          'assistant',
          'user',
          'assistant',
          'user',
          'assistant',
        ]);
        expect(typeof unknown.list[0]!.created_at).toBe('number');
      });

      it('answers the message and the run without waiting for the projector, yet the next read shows them', async () => {
        const owner = await assistantWithFacts(h);
        const auth = { authorization: owner.authorization };
        const threadId = await newThread(h, owner);
        const posted = await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/messages`,
          headers: auth,
          payload: { content: 'Is there parking?' },
        });
        expect(posted.statusCode).toBe(201);
        const listed = await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth });
        expect(listed.json().data.map((m: { id: string }) => m.id)).toContain(posted.json().id);

        const requested = await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers: auth,
          payload: { assistant_id: owner.externalId },
        });
        expect(requested.json()).toMatchObject({ status: 'queued', thread_id: threadId, last_error: null });
        const polled = await h.app.inject({
          url: `/api/v1/threads/${threadId}/runs/${requested.json().run_id}`,
          headers: auth,
        });
        expect(polled.statusCode).toBe(200);
        expect(['queued', 'in_progress', 'completed']).toContain(polled.json().status);
      });

      it('a redelivered run request never produces a second answer', async () => {
        const owner = await assistantWithFacts(h);
        const threadId = await newThread(h, owner);
        const first = await ask(h, owner, threadId, 'How much is the sourdough loaf?');
        expect(first.answer?.content[0]?.text.value).toContain('24 shekels');

        const stream = streamIds.thread(threadId);
        const requested = (await h.platform.eventStore.readStream(stream)).find((e) => e.type === 'RunRequested')!;
        await h.platform.bus.publish(topicFor(stream), [toMessage(requested), toMessage(requested)]);
        // Same key, same partition: once a later run on this thread is answered, the duplicates were handled.
        const second = await ask(h, owner, threadId, 'What are the opening hours?');
        expect(second.status.status).toBe('completed');
        await h.workers.aiRunner.idle();

        const events = await h.platform.eventStore.readStream(stream);
        expect(events.filter((e) => e.type === 'RunCompleted')).toHaveLength(2);
        expect(second.list.filter((m) => m.role === 'assistant' && m.run_id === first.runId)).toHaveLength(1);
      });

      it('streams the answer as server-sent events whose final text is the stored message', async () => {
        const owner = await assistantWithFacts(h);
        const threadId = await newThread(h, owner);
        const { runId, answer } = await ask(h, owner, threadId, 'What are the opening hours?');
        const auth = { authorization: owner.authorization };
        const sse = await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}/stream`, headers: auth });
        expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
        const events = sse.body
          .trim()
          .split('\n\n')
          .map((block) =>
            Object.fromEntries(
              block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
            ),
          );
        const deltas = events.filter((e) => e.event === 'delta');
        const done = events.at(-1)!;
        expect(done.event).toBe('completed');
        expect(deltas.map((e) => JSON.parse(e.data!).text).join('')).toBe(answer!.content[0]!.text.value);
        expect(JSON.parse(done.data!).message.content[0].text.value).toBe(answer!.content[0]!.text.value);

        // Resuming after the first delta replays only what follows it. (How many deltas there are depends on
        // the adapter: across processes, pieces produced while one is on its way travel together.)
        const resumed = await h.app.inject({
          url: `/api/v1/threads/${threadId}/runs/${runId}/stream`,
          headers: { ...auth, 'last-event-id': deltas[0]!.id! },
        });
        const rest = resumed.body
          .trim()
          .split('\n\n')
          .map((block) =>
            Object.fromEntries(
              block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
            ),
          );
        expect(rest.filter((e) => e.event === 'delta').every((e) => Number(e.id) > Number(deltas[0]!.id))).toBe(true);
        expect(
          JSON.parse(deltas[0]!.data!).text +
            rest
              .filter((e) => e.event === 'delta')
              .map((e) => JSON.parse(e.data!).text)
              .join(''),
        ).toBe(answer!.content[0]!.text.value);
        expect(rest.at(-1)!.event).toBe('completed');
      });

      it("opens a run's stream on the grant it came with, reading neither the session nor the thread; no other run's", async () => {
        const owner = await assistantWithFacts(h);
        const threadId = await newThread(h, owner);
        const { runId, grant, answer } = await ask(h, owner, threadId, 'What are the opening hours?');
        expect(grant).toMatch(/^[0-9a-z]+\.[\w-]{43}$/);
        const other = await ask(h, owner, threadId, 'Is there parking?');
        const url = `/api/v1/threads/${threadId}/runs/${runId}/stream`;
        const store = h.platform.eventStore;
        const readStream = store.readStream.bind(store);
        const threadReads: string[] = [];
        store.readStream = (streamId, options) => {
          threadReads.push(streamId);
          return readStream(streamId, options);
        };
        try {
          // No bearer token at all: the grant alone opens it, and the whole answer comes.
          const sse = await h.app.inject({ url, headers: { 'x-run-grant': grant } });
          expect(sse.statusCode).toBe(200);
          expect(sse.body).toContain('event: completed');
          expect(sse.body).toContain(JSON.stringify(answer!.content[0]!.text.value).slice(1, 20));
          expect(threadReads).toEqual([]);
          // Opened with the bearer token instead, the same stream reads the thread first (so the spy sees the route's reads).
          const bySession = await h.app.inject({ url, headers: { authorization: owner.authorization } });
          expect(bySession.statusCode).toBe(200);
          expect(threadReads).toContain(streamIds.thread(threadId));
        } finally {
          store.readStream = readStream;
        }
        // Another run's grant, a tampered one, or one for this run on another thread opens nothing without
        // the bearer token (401, as any unsigned-in call), and with it the stream opens as it always did.
        const tampered = grant.slice(0, -2) + (grant.endsWith('AA') ? 'BB' : 'AA');
        const elsewhere = (await newThread(h, owner)) as string;
        for (const [target, bad] of [
          [url, other.grant],
          [url, tampered],
          [url, 'x'],
          [`/api/v1/threads/${elsewhere}/runs/${runId}/stream`, grant],
        ] as const) {
          expect((await h.app.inject({ url: target, headers: { 'x-run-grant': bad } })).statusCode, bad).toBe(401);
        }
        const withBearer = await h.app.inject({
          url,
          headers: { 'x-run-grant': tampered, authorization: owner.authorization },
        });
        expect(withBearer.statusCode).toBe(200);
        expect(withBearer.body).toContain('event: completed');
      });

      it("keeps each owner's threads to that owner", async () => {
        const alice = await assistantWithFacts(h);
        const bob = await h.owner();
        const threadId = await newThread(h, alice);
        await ask(h, alice, threadId, 'What are the opening hours?');
        const asBob = { authorization: bob.authorization };
        for (const url of [`/api/v1/threads/${threadId}/messages`, `/api/v1/assistants/${alice.id}/threads`]) {
          expect((await h.app.inject({ url, headers: asBob })).statusCode).toBe(404);
        }
        const post = await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/messages`,
          headers: asBob,
          payload: { content: 'hi' },
        });
        expect(post.json()).toMatchObject({ detail: 'THREAD_NOT_FOUND' });
        expect(
          (
            await h.app.inject({
              method: 'POST',
              url: '/api/v1/threads/',
              headers: asBob,
              payload: { assistant_id: alice.id },
            })
          ).statusCode,
        ).toBe(404);
        expect((await h.app.inject({ url: '/api/v1/threads/not%20an%20id/messages', headers: asBob })).statusCode).toBe(
          400,
        );
      });

      it('renames, lists and deletes conversations; feedback is one per message per author', async () => {
        const owner = await assistantWithFacts(h);
        const auth = { authorization: owner.authorization };
        const threadId = await newThread(h, owner);
        const { answer } = await ask(h, owner, threadId, 'What are the opening hours?');

        const renamed = await h.app.inject({
          method: 'PATCH',
          url: `/api/v1/threads/${threadId}`,
          headers: auth,
          payload: { title: '  Hours ' },
        });
        expect(renamed.json()).toMatchObject({
          id: threadId,
          title: 'Hours',
          is_public: false,
          assistant_id: owner.id,
          openai_thread_id: threadId,
        });
        expect((await h.app.inject({ url: `/api/v1/assistants/${owner.id}/threads`, headers: auth })).json()).toEqual([
          expect.objectContaining({ id: threadId, title: 'Hours' }),
        ]);

        const feedback = (rating: string, comment?: string) =>
          h.app.inject({
            method: 'POST',
            url: '/api/v1/feedback',
            headers: auth,
            payload: { assistant_id: String(owner.id), thread_id: threadId, message_id: answer!.id, rating, comment },
          });
        expect((await feedback('like')).statusCode).toBe(200);
        expect((await feedback('dislike', 'Too short')).statusCode).toBe(200);
        expect((await feedback('like', 'x'.repeat(501))).statusCode).toBe(422);
        const { rows } = await h.platform.sql.query<{ rating: string; comment: string }>(
          `SELECT rating, comment FROM thread_feedback WHERE message_id = $1`,
          [answer!.id],
        );
        expect(rows).toEqual([{ rating: 'dislike', comment: 'Too short' }]);

        expect(
          (await h.app.inject({ method: 'DELETE', url: `/api/v1/threads/${threadId}`, headers: auth })).statusCode,
        ).toBe(200);
        expect((await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: auth })).statusCode).toBe(
          404,
        );
        expect((await h.app.inject({ url: `/api/v1/assistants/${owner.id}/threads`, headers: auth })).json()).toEqual(
          [],
        );
      });

      it('enforces the chat input rules, the message length and the chat limit with the spec texts', async () => {
        const owner = await assistantWithFacts(h, { chat_limit: 1 });
        const auth = { authorization: owner.authorization };
        const threadId = await newThread(h, owner);
        const post = (content: string) =>
          h.app.inject({
            method: 'POST',
            url: `/api/v1/threads/${threadId}/messages`,
            headers: auth,
            payload: { content },
          });
        expect((await post(Array.from({ length: 101 }, () => 'word').join(' '))).json().detail[0].msg).toBe(
          'Message exceeds word limit. Maximum 100 words allowed, but message contains 101 words.',
        );
        expect((await post('x'.repeat(1601))).json().detail[0].msg).toBe(
          'Message exceeds token limit. Maximum 400 tokens allowed, but message contains approximately 401 tokens.',
        );
        expect((await post('x'.repeat(10_001))).json().detail[0].msg).toBe('Message too long (max 10000 characters)');
        expect((await post('   ')).json().detail[0].msg).toBe('Message content cannot be empty');
        const badRun = await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers: auth,
          payload: { assistant_id: 'asst_short' },
        });
        expect(badRun.json().detail[0].msg).toBe('Invalid assistant ID format');

        expect((await post('What are the opening hours?')).statusCode).toBe(201);
        const over = await post('And on Friday?');
        expect(over.statusCode).toBe(403);
        expect(over.json().detail).toMatch(/limit of 1 messages/);
      });

      it('lets a visitor chat through the share link; the thread is readable only with its session token', async () => {
        const owner = await assistantWithFacts(h);
        const share = (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${owner.id}/generate-share-token`,
            headers: { authorization: owner.authorization },
          })
        ).json();
        expect(
          (
            await h.app.inject({
              method: 'POST',
              url: '/api/v1/threads/public',
              payload: { assistant_id: owner.id, share_token: 'wrong-token' },
            })
          ).statusCode,
        ).toBe(404);

        const sessionToken = 'f'.repeat(64);
        const started = await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/public',
          payload: { assistant_id: owner.id, share_token: share.share_token, session_token: sessionToken },
        });
        expect(started.statusCode).toBe(201);
        const threadId = started.json().thread_id as string;
        expect(started.json().session_token).toBe(sessionToken);

        const base = `/api/v1/threads/public/${threadId}`;
        expect(
          (
            await h.app.inject({
              method: 'POST',
              url: `${base}/messages`,
              payload: { content: 'מה שעות הפתיחה?', session_token: sessionToken },
            })
          ).statusCode,
        ).toBe(201);
        const run = (
          await h.app.inject({
            method: 'POST',
            url: `${base}/runs`,
            payload: { assistant_id: owner.externalId, session_token: sessionToken },
          })
        ).json();
        await expect
          .poll(
            async () =>
              (await h.app.inject({ url: `${base}/runs/${run.run_id}?session_token=${sessionToken}` })).json().status,
            { timeout: 30_000, interval: 50 },
          )
          .toBe('completed');
        const list = (await h.app.inject({ url: `${base}/messages?session_token=${sessionToken}` })).json()
          .data as MessageDto[];
        expect(parseRedirect(list[1]!.content[0]!.text.value).text).toContain('ראשון עד חמישי');

        const other = 'e'.repeat(64);
        expect((await h.app.inject({ url: `${base}/messages?session_token=${other}` })).json()).toMatchObject({
          detail: 'THREAD_NOT_FOUND',
        });
        expect((await h.app.inject({ url: `${base}/messages` })).statusCode).toBe(422);
        // The assistant's owner reads it too (Chat History; see visitor-threads.int.test.ts).
        expect(
          (
            await h.app.inject({
              url: `/api/v1/threads/${threadId}/messages`,
              headers: { authorization: owner.authorization },
            })
          ).statusCode,
        ).toBe(200);
        const listed = (
          await h.app.inject({
            url: `/api/v1/assistants/${owner.id}/threads`,
            headers: { authorization: owner.authorization },
          })
        ).json();
        expect(listed).toEqual([expect.objectContaining({ id: threadId, is_public: true, title: 'מה שעות הפתיחה?' })]);

        const feedback = await h.app.inject({
          method: 'POST',
          url: '/api/v1/feedback/public',
          payload: {
            assistant_id: String(owner.id),
            thread_id: threadId,
            message_id: list[1]!.id,
            rating: 'like',
            session_token: sessionToken,
            is_public: true,
          },
        });
        expect(feedback.statusCode).toBe(200);

        await h.app.inject({
          method: 'DELETE',
          url: `/api/v1/assistants/${owner.id}/share-token`,
          headers: { authorization: owner.authorization },
        });
        const revoked = await h.app.inject({
          method: 'POST',
          url: `${base}/messages`,
          payload: { content: 'Still there?', session_token: sessionToken },
        });
        expect(revoked.json()).toMatchObject({ detail: 'Invalid or expired share link.' });
      });
    },
  );
}

chatTests('in-process bus', { bus: 'in-process' }, gate);
chatTests('Kafka bus', { bus: 'kafka' }, gate.available ? await kafkaAvailability() : gate);
// The production topology: API, projector and workers apart, sharing only Postgres (and the bus).
chatTests('API, projector and workers apart', { bus: 'in-process', topology: 'split' }, gate);

/** A provider that never answers, nor listens to its signal: the run must still end, as expired, at its deadline. */
const silentProvider: AnswerProvider = {
  name: 'silent',
  async *answer() {
    // Ignores its signal on purpose: the worker must give up on it by itself.
    await new Promise<void>(() => {});
    yield* [];
  },
};

describe.skipIf(!gate.available)('chat: runs nobody finishes', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness({
      answerProvider: silentProvider,
      env: { RUN_DEADLINE_SECONDS: '1', RUN_SWEEP_INTERVAL_MS: '0' },
    });
  });
  afterAll(async () => h?.close());

  it('expires a run at its deadline, tells the client, and lets the next run start', async () => {
    const owner = await assistantWithFacts(h);
    const threadId = await newThread(h, owner);
    const { runId, status, answer } = await ask(h, owner, threadId, 'What are the opening hours?');
    expect(status).toMatchObject({
      status: 'expired',
      last_error: { message: 'Assistant response timed out. Please try again.' },
    });
    expect(answer).toBeUndefined();
    await expect
      .poll(
        async () =>
          (await h.platform.eventStore.readStream(streamIds.thread(threadId))).some(
            (e) => e.type === 'RunExpired' && (e.data as { runId: string }).runId === runId,
          ),
        {
          timeout: 30_000,
          interval: 50,
        },
      )
      .toBe(true);
    const next = await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${threadId}/runs`,
      headers: { authorization: owner.authorization },
      payload: { assistant_id: owner.externalId },
    });
    expect(next.statusCode).toBe(201);
  });

  it('a run whose worker is gone is expired by the sweep', async () => {
    const owner = await assistantWithFacts(h);
    const auth = { authorization: owner.authorization };
    const threadId = await newThread(h, owner);
    await h.workers.aiRunner.stop(); // as if the worker was killed: nobody will answer
    await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${threadId}/messages`,
      headers: auth,
      payload: { content: 'Anyone there?' },
    });
    const runId = (
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/${threadId}/runs`,
        headers: auth,
        payload: { assistant_id: owner.externalId },
      })
    ).json().run_id;
    await expect
      .poll(
        async () =>
          (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json().status,
        { timeout: 30_000, interval: 50 },
      )
      .toBe('expired');
    await h.workers.aiRunner.sweep();
    const events = await h.platform.eventStore.readStream(streamIds.thread(threadId));
    expect(events.filter((e) => e.type === 'RunExpired').map((e) => (e.data as { runId: string }).runId)).toEqual([
      runId,
    ]);
  });
});

describe.skipIf(!gate.available)('chat with an OpenAI-compatible service (local stand-in)', () => {
  let h: ApiHarness;
  let standIn: OpenAiStandIn;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    h = await createApiHarness({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: standIn.baseURL, OPENAI_MODEL: 'stand-in-model' },
    });
  });
  afterAll(async () => {
    await h?.close();
    await standIn?.close();
  });

  it('answers through the model with the retrieved knowledge, and fails a run readably when the service refuses', async () => {
    const owner = await assistantWithFacts(h);
    const threadId = await newThread(h, owner);
    standIn.script({
      kind: 'stream',
      pieces: ['We open at 7:00 ', 'on Sunday [1].'],
      usage: { prompt_tokens: 80, completion_tokens: 8 },
    });
    const { status, answer } = await ask(h, owner, threadId, 'When does the bakery open?');
    expect(status.status).toBe('completed');
    expect(answer?.content[0]?.text.value).toBe('We open at 7:00 on Sunday [1].');
    expect(answer?.sources).toEqual([expect.objectContaining({ filename: 'bakery.txt' })]);
    expect(standIn.requests.at(-1)!.model).toBe('stand-in-model');
    expect(standIn.requests.at(-1)!.messages[0]!.content).toContain('Sunday to Thursday, 7:00 to 19:00');

    standIn.script({ kind: 'error', status: 401, message: 'invalid key' });
    const failed = await ask(h, owner, threadId, 'And on Friday?');
    expect(failed.status).toMatchObject({
      status: 'failed',
      last_error: { message: 'The AI service refused the configured key. Please contact the administrator.' },
    });
  });
});
