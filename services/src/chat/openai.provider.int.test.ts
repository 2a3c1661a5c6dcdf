import type { RetrievedPassage } from '../knowledge/search/retrieve.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type OpenAiStandIn } from '../testing/openai-stand-in.js';
import { AnswerProviderError, type AnswerDelta, type AnswerRequest } from './answer-provider.port.js';
import { createOpenAiProvider } from './openai.provider.js';

const passage: RetrievedPassage = {
  fileId: 'f1',
  filename: 'hours.txt',
  sourceUrl: null,
  section: null,
  text: 'Open Sunday to Thursday, 7:00 to 19:00.',
  score: 1,
};
const request = (signal?: AbortSignal): AnswerRequest => ({
  question: 'When are you open?',
  language: 'en',
  history: [],
  assistant: { name: 'Bakery', instructions: 'Be brief.', salesMode: { enabled: false, salesPrompt: '' } },
  passages: [passage],
  signal,
});

async function collect(stream: AsyncIterable<AnswerDelta>) {
  let text = '';
  let usage: AnswerDelta | undefined;
  for await (const delta of stream) {
    if (delta.kind === 'text') text += delta.text;
    else usage = delta;
  }
  return { text, usage };
}

describe('OpenAI provider against a local stand-in of the streaming API', () => {
  let standIn: OpenAiStandIn;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
  });
  afterAll(async () => standIn?.close());
  const provider = (overrides: { maxRetries?: number; timeoutMs?: number } = {}) =>
    createOpenAiProvider({
      apiKey: 'sk-test',
      baseURL: standIn.baseURL,
      model: 'gpt-test',
      maxRetries: 0,
      timeoutMs: 5000,
      ...overrides,
    });

  it('streams the answer and the usage, having sent the grounded prompt', async () => {
    standIn.script({
      kind: 'stream',
      pieces: ['We are open ', 'Sunday to Thursday', ' [1].'],
      usage: { prompt_tokens: 120, completion_tokens: 9 },
    });
    const { text, usage } = await collect(provider().answer(request()));
    expect(text).toBe('We are open Sunday to Thursday [1].');
    expect(usage).toEqual({ kind: 'usage', promptTokens: 120, completionTokens: 9 });
    const sent = standIn.requests.at(-1)!;
    expect(sent).toMatchObject({ model: 'gpt-test', stream: true });
    expect(sent.messages[0]!.content).toContain('[1] hours.txt\nOpen Sunday to Thursday');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'When are you open?' });
  });

  it('retries a server error with backoff, then answers', async () => {
    standIn.script({ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'stream', pieces: ['Open daily.'] });
    const before = standIn.requests.length;
    const { text } = await collect(provider({ maxRetries: 2 }).answer(request()));
    expect(text).toBe('Open daily.');
    expect(standIn.requests.length - before).toBe(2);
  });

  it('turns an error response into a readable error', async () => {
    standIn.script({ kind: 'error', status: 401, message: 'bad key' });
    await expect(collect(provider().answer(request()))).rejects.toThrow(
      new AnswerProviderError('The AI service refused the configured key. Please contact the administrator.'),
    );
    standIn.script({ kind: 'error', status: 500, message: 'boom' });
    await expect(collect(provider().answer(request()))).rejects.toThrow(
      'The AI service had an error. Please try again.',
    );
  });

  it('reports a stream cut midway after the pieces that did arrive', async () => {
    standIn.script({ kind: 'cut', pieces: ['We are ', 'open '] });
    const received: string[] = [];
    const failure = (async () => {
      for await (const delta of provider().answer(request())) if (delta.kind === 'text') received.push(delta.text);
    })();
    await expect(failure).rejects.toBeInstanceOf(AnswerProviderError);
    await expect(failure).rejects.toThrow(/stopped in the middle/);
    expect(received.join('')).toBe('We are open ');
  });

  it('cancels the upstream call when the signal aborts', async () => {
    standIn.script({ kind: 'hold', pieces: ['Thinking'] });
    const controller = new AbortController();
    const closedBefore = standIn.closedByClient;
    const iterator = provider().answer(request(controller.signal))[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ kind: 'text', text: 'Thinking' });
    controller.abort();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    await expect.poll(() => standIn.closedByClient, { interval: 20 }).toBe(closedBefore + 1);
  });

  it('gives up on a server that never answers after the timeout', async () => {
    standIn.script({ kind: 'hold', pieces: [] });
    await expect(collect(provider({ timeoutMs: 300 }).answer(request()))).rejects.toThrow(
      /took too long|stopped in the middle/,
    );
  });
});
