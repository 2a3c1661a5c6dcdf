import { redirectMarker, type MessageDto } from '@kesher/contracts';
import { expect } from 'vitest';
import type { AnswerDelta, AnswerProvider, AnswerRequest } from '../../chat/answer-provider.port.js';
import type { ApiHarness } from '../../testing/api-harness.js';

/**
 * A provider that echoes every question at once in two pieces (so a first token exists), with token
 * counts, and — for questions about prices (מחיר) — the redirect marker of a sales answer, so the
 * referral analytics have something to count. It stands in for a model; it is not the product's engine.
 */
export const scriptedProvider: AnswerProvider = {
  name: 'scripted',
  async *answer(request: AnswerRequest): AsyncIterable<AnswerDelta> {
    const pricing = /price|pricing|מחיר/i.test(request.question);
    const hebrew = /[\u05D0-\u05EA]/.test(request.question);
    // The question's words come back in the answer (so each owner's answers hold only their own words).
    yield { kind: 'text', text: hebrew ? 'שאלתם: ' : 'You asked: ' };
    yield { kind: 'text', text: request.question };
    if (pricing) yield { kind: 'text', text: `\n${redirectMarker('https://bakery.example.com/pricing')}` };
    yield { kind: 'usage', promptTokens: 100, completionTokens: 20 };
  },
};

export interface ScenarioOwner {
  authorization: string;
  auth: { authorization: string };
  accountId: string;
  email: string;
  assistantId: number;
  externalId: string;
  shareToken?: string;
}

export async function ownerWithAssistant(
  h: ApiHarness,
  options: { email?: string; body?: Record<string, unknown>; share?: boolean } = {},
): Promise<ScenarioOwner> {
  const owner = await h.owner(options.email);
  const auth = { authorization: owner.authorization };
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/assistants/',
    headers: auth,
    payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer briefly', ...options.body },
  });
  expect(created.statusCode).toBe(201);
  const result: ScenarioOwner = {
    ...owner,
    auth,
    assistantId: created.json().assistant_id,
    externalId: created.json().openai_assistant_id,
  };
  if (options.share) {
    const share = await h.app.inject({
      method: 'POST',
      url: `/api/v1/assistants/${result.assistantId}/generate-share-token`,
      headers: auth,
    });
    result.shareToken = share.json().share_token;
  }
  return result;
}

export async function ownerThread(h: ApiHarness, owner: ScenarioOwner): Promise<string> {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/v1/threads/',
    headers: owner.auth,
    payload: { assistant_id: owner.assistantId },
  });
  expect(response.statusCode).toBe(201);
  return response.json().thread_id;
}

/** A visitor's conversation through the owner's share link; returns a function that asks in it. */
export async function visitorThread(h: ApiHarness, owner: ScenarioOwner, session = 'b'.repeat(64)) {
  const started = await h.app.inject({
    method: 'POST',
    url: '/api/v1/threads/public',
    payload: { assistant_id: owner.assistantId, share_token: owner.shareToken, session_token: session },
  });
  expect(started.statusCode).toBe(201);
  const threadId = started.json().thread_id as string;
  return {
    threadId,
    async ask(content: string) {
      const posted = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/public/${threadId}/messages`,
        payload: { content, session_token: session },
      });
      expect(posted.statusCode).toBe(201);
      const run = await h.app.inject({
        method: 'POST',
        url: `/api/v1/threads/public/${threadId}/runs`,
        payload: { assistant_id: owner.externalId, session_token: session },
      });
      expect(run.statusCode).toBe(201);
      const runId = run.json().run_id as string;
      // The answer's stream ends with its outcome: reading it whole is waiting for the run.
      const stream = await h.app.inject({
        url: `/api/v1/threads/public/${threadId}/runs/${runId}/stream?session_token=${session}`,
      });
      expect(stream.body).toContain('event: completed');
      return runId;
    },
  };
}

/** Asks in the owner's thread and waits for the answer; returns the answer message. */
export async function ask(h: ApiHarness, owner: ScenarioOwner, threadId: string, content: string): Promise<MessageDto> {
  const posted = await h.app.inject({
    method: 'POST',
    url: `/api/v1/threads/${threadId}/messages`,
    headers: owner.auth,
    payload: { content },
  });
  expect(posted.statusCode).toBe(201);
  const run = await h.app.inject({
    method: 'POST',
    url: `/api/v1/threads/${threadId}/runs`,
    headers: owner.auth,
    payload: { assistant_id: owner.externalId },
  });
  expect(run.statusCode).toBe(201);
  const runId = run.json().run_id as string;
  // The answer's stream ends with its outcome: reading it whole is waiting for the run.
  const stream = await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}/stream`, headers: owner.auth });
  expect(stream.body).toContain('event: completed');
  const list = (await h.app.inject({ url: `/api/v1/threads/${threadId}/messages`, headers: owner.auth })).json()
    .data as MessageDto[];
  return list.find((message) => message.run_id === runId)!;
}

/** Waits until every read model has applied the whole log (the analytics included). */
export async function settled(h: ApiHarness) {
  const head = await h.platform.eventStore.headPosition();
  expect(await h.platform.projector.waitForPosition(head, { timeoutMs: 20_000 })).toBe(true);
}

export async function getJson(h: ApiHarness, url: string, auth?: { authorization: string }) {
  const response = await h.app.inject({ url, headers: auth ?? {} });
  return { status: response.statusCode, body: response.json() };
}
