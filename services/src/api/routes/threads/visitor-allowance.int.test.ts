import { chatMessages } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();
const UNAVAILABLE = { detail: 'This assistant is not available right now. Please try again later.' };

/** Answers every question, except one that asks it to fail: that run fails, as a model's outage would. */
const failOnRequest: AnswerProvider = {
  name: 'fail-on-request',
  async *answer(request) {
    if (request.question.includes('please fail')) throw new Error('the model is down');
    yield { kind: 'text', text: `About "${request.question}": fresh every morning.` };
  },
};

/**
 * Issue 21, items 12 and 13: one address drained a free plan's month in three minutes, after which every
 * visitor was refused (and told to upgrade the plan); one address opened 80 empty conversations, each
 * listed in Chat History and counted in analytics.
 */
describe.skipIf(!gate.available)(`visitors' allowance${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  beforeAll(async () => {
    // A month of 6 answers, so that the plan's limit is reached within a test.
    h = await createApiHarness({ answerProvider: failOnRequest, env: { PLAN_FREE_MESSAGES_PER_MONTH: '6' } });
  });
  afterAll(async () => h?.close());

  async function sharedAssistant() {
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
    const id = created.assistant_id as number;
    const shareToken = (
      await h.app.inject({ method: 'POST', url: `/api/v1/assistants/${id}/generate-share-token`, headers })
    ).json().share_token as string;
    return { headers, id, externalId: created.openai_assistant_id as string, shareToken };
  }
  type Bakery = Awaited<ReturnType<typeof sharedAssistant>>;

  /** A visitor through the share link from `address`: `ask` sends a message with its run and waits for the run to settle. */
  async function visitor(bakery: Bakery, session: string, address: string) {
    const started = await h.app.inject({
      method: 'POST',
      url: '/api/v1/threads/public',
      remoteAddress: address,
      payload: { assistant_id: bakery.id, share_token: bakery.shareToken, session_token: session },
    });
    expect(started.statusCode, started.body).toBe(201);
    const base = `/api/v1/threads/public/${started.json().thread_id}`;
    return {
      base,
      async ask(content: string) {
        const sent = await h.app.inject({
          method: 'POST',
          url: `${base}/runs`,
          remoteAddress: address,
          payload: {
            assistant_id: bakery.externalId,
            session_token: session,
            additional_messages: [{ role: 'user', content }],
          },
        });
        // Refused: the status says how, so that a test expecting an answer shows why there was none.
        if (sent.statusCode !== 201) return { response: sent, status: `refused ${sent.statusCode}: ${sent.body}` };
        const runUrl = `${base}/runs/${sent.json().id}?session_token=${session}`;
        let status = '';
        await expect
          .poll(async () => (status = (await h.app.inject({ url: runUrl })).json().status), {
            timeout: 30_000,
            interval: 50,
          })
          .toMatch(/^(completed|failed|expired)$/);
        // The allowance reads outcomes from the threads read model, where a run not shown settled yet counts
        // as one being answered: wait for it there too, as the next message of a visitor a moment later would.
        await expect
          .poll(
            async () =>
              (
                await h.platform.sql.query<{ status: string }>(`SELECT status FROM thread_runs WHERE id = $1`, [
                  sent.json().id,
                ])
              ).rows[0]?.status,
            { timeout: 30_000, interval: 20 },
          )
          .toBe(status);
        return { response: sent, status };
      },
    };
  }
  const ownerTurn = async (bakery: Bakery, threadId: string) =>
    h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${threadId}/runs`,
      headers: bakery.headers,
      payload: { assistant_id: bakery.externalId, additional_messages: [{ role: 'user', content: 'Owner testing' }] },
    });

  it("holds one visitor to the assistant's daily allowance per visitor, by session and by address, and tells them neutrally", async () => {
    const bakery = await sharedAssistant();
    const assistantUrl = `/api/v1/assistants/${bakery.id}`;
    expect((await h.app.inject({ url: assistantUrl, headers: bakery.headers })).json().visitor_daily_limit).toBe(50);
    // The owner sets it; nonsense is refused with a clear text and changes nothing.
    for (const bad of [0, 10_001, 2.5, 'three']) {
      const refused = await h.app.inject({
        method: 'PUT',
        url: assistantUrl,
        headers: bakery.headers,
        payload: { visitor_daily_limit: bad },
      });
      expect(refused.statusCode, String(bad)).toBe(422);
      expect(refused.body).toContain('The daily limit per visitor must be a whole number from 1 to 10000.');
    }
    const set = await h.app.inject({
      method: 'PUT',
      url: assistantUrl,
      headers: bakery.headers,
      payload: { visitor_daily_limit: 2 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await h.app.inject({ url: assistantUrl, headers: bakery.headers })).json().visitor_daily_limit).toBe(2);

    const first = await visitor(bakery, 'a'.repeat(64), '203.0.113.10');
    // A failed answer is not counted: the visitor still has both of the day's answers.
    expect((await first.ask('Bread? please fail')).status).toBe('failed');
    expect((await first.ask('Is the rye sourdough?')).status).toBe('completed');
    expect((await first.ask('And the challah?')).status).toBe('completed');
    const refused = (await first.ask('And the bagels?')).response;
    expect([refused.statusCode, refused.json()]).toMatchObject([429, UNAVAILABLE]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    // The refused message was not stored.
    const stored = (await h.app.inject({ url: `${first.base}/messages?session_token=${'a'.repeat(64)}` })).json().data;
    expect(stored.map((m: { content: { text: { value: string } }[] }) => m.content[0]!.text.value)).not.toContain(
      'And the bagels?',
    );

    // A new session token from the same address buys nothing; another address is another visitor.
    const sameAddress = await visitor(bakery, 'b'.repeat(64), '203.0.113.10');
    expect((await sameAddress.ask('Hello?')).response.json()).toMatchObject(UNAVAILABLE);
    const neighbour = await visitor(bakery, 'c'.repeat(64), '198.51.100.77');
    expect((await neighbour.ask('Do you open on Sunday?')).status).toBe('completed');
    // The owner's own chat is not a visitor's.
    const own = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: bakery.headers,
        payload: { assistant_id: bakery.id },
      })
    ).json().thread_id;
    expect((await ownerTurn(bakery, own)).statusCode).toBe(201);
  });

  it("counts only answered messages against the owner's month; at its end visitors are told the assistant is unavailable, the owner why", async () => {
    const bakery = await sharedAssistant();
    const usage = async () => (await h.app.inject({ url: '/api/v1/limits/usage', headers: bakery.headers })).json();
    const asker = await visitor(bakery, 'd'.repeat(64), '192.0.2.30');
    expect((await asker.ask('please fail once')).status).toBe('failed');
    expect((await asker.ask('please fail twice')).status).toBe('failed');
    for (let i = 0; i < 6; i++) expect((await asker.ask(`Question ${i}`)).status, `question ${i}`).toBe('completed');
    // The month's figure is of answers: the two failed runs cost nothing.
    await expect.poll(async () => (await usage()).usage.messages, { timeout: 30_000, interval: 50 }).toBe(6);

    const refused = (await asker.ask('One more?')).response;
    expect([refused.statusCode, refused.json()]).toMatchObject([403, UNAVAILABLE]);
    expect(refused.body).not.toMatch(/upgrade|plan/i);
    const stranger = await visitor(bakery, 'e'.repeat(64), '192.0.2.31');
    expect((await stranger.ask('Hello?')).response.json()).toMatchObject(UNAVAILABLE);

    const own = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: bakery.headers,
        payload: { assistant_id: bakery.id },
      })
    ).json().thread_id;
    const ownerRefused = await ownerTurn(bakery, own);
    expect([ownerRefused.statusCode, ownerRefused.json()]).toMatchObject([
      403,
      { detail: chatMessages.monthlyLimitReached(6) },
    ]);
  });

  it('limits the conversations one address may start, and neither lists nor counts a conversation before its first message', async () => {
    const bakery = await sharedAssistant();
    const starts = [];
    for (let i = 0; i < 80; i++) {
      starts.push(
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/public',
          remoteAddress: '203.0.113.99',
          payload: { assistant_id: bakery.id, share_token: bakery.shareToken },
        }),
      );
    }
    const started = starts.filter((r) => r.statusCode === 201);
    expect(started).toHaveLength(20);
    const refused = starts.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ detail: 'Too many requests. Please try again later.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(starts.slice(20).every((r) => r.statusCode === 429)).toBe(true);

    // None of the empty ones is a conversation for the owner.
    expect(
      (await h.app.inject({ url: `/api/v1/assistants/${bakery.id}/threads`, headers: bakery.headers })).json(),
    ).toEqual([]);
    expect((await h.app.inject({ url: '/api/v1/inbox', headers: bakery.headers })).json().data).toEqual([]);

    // Another address starts one and writes in it: from then on it is listed and counted, once.
    const real = await visitor(bakery, 'f'.repeat(64), '198.51.100.5');
    expect((await real.ask('Do you deliver?')).status).toBe('completed');
    expect((await real.ask('And on Friday?')).status).toBe('completed');
    const listed = (
      await h.app.inject({ url: `/api/v1/assistants/${bakery.id}/threads`, headers: bakery.headers })
    ).json();
    expect(listed).toEqual([expect.objectContaining({ id: real.base.split('/').pop(), is_public: true })]);
    expect((await h.app.inject({ url: '/api/v1/inbox', headers: bakery.headers })).json().data).toHaveLength(1);
    const overview = async () =>
      (await h.app.inject({ url: '/api/v1/analytics/dashboard', headers: bakery.headers })).json().data.overview;
    await expect.poll(async () => (await overview()).total_queries, { timeout: 30_000, interval: 100 }).toBe(2);
    expect((await overview()).total_conversations).toBe(1);
  });
});
