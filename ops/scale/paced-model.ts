import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The model of the scale test: an OpenAI-compatible Chat Completions server (streaming wire format) that
 * answers slowly enough to be interrupted. Each workers process gets its own base URL
 * (`/<worker>/v1`), so the test knows which worker is answering a run and can kill that one.
 *
 * What it answers depends on the question:
 * - `[hold]` in it: two pieces, then the stream stays open until the caller goes away (a worker killed
 *   mid-run); `held` says who holds one.
 * - otherwise `pieces` pieces, `pieceDelayMs` apart, after `firstTokenDelayMs`; a `[slow]` question gets
 *   `slowPieces` pieces `slowPieceDelayMs` apart (an answer long enough to kill an API replica while it streams).
 */
export interface PacedModel {
  /** The base URL one workers process uses (OPENAI_BASE_URL). */
  baseUrlFor(worker: string): string;
  /** Every request: which worker asked, and the question (the last user message). */
  requests: { worker: string; question: string; at: number }[];
  /** Workers currently holding a `[hold]` answer open, with the question. */
  held: Map<string, string>;
  close(): Promise<void>;
}

export interface PacedModelOptions {
  firstTokenDelayMs: number;
  pieceDelayMs: number;
  pieces: number;
  slowPieces: number;
  slowPieceDelayMs: number;
}

const chunk = (content: string | null, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-scale',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'scale-model',
    choices: content === null ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
    ...extra,
  })}\n\n`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startPacedModel(options: PacedModelOptions): Promise<PacedModel> {
  const requests: PacedModel['requests'] = [];
  const held = new Map<string, string>();

  async function handle(request: IncomingMessage, response: ServerResponse) {
    let body = '';
    for await (const part of request) body += part;
    const match = /^\/([\w-]+)\/v1\/chat\/completions$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) {
      response.writeHead(404).end();
      return;
    }
    const worker = match[1]!;
    const parsed = JSON.parse(body) as { messages: { role: string; content: string | null }[] };
    const question = [...parsed.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    requests.push({ worker, question, at: Date.now() });
    let gone = false;
    response.on('close', () => (gone = true));
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.flushHeaders();
    await sleep(options.firstTokenDelayMs);
    if (question.includes('[hold]')) {
      response.write(chunk('Let me think ') + chunk('about that… '));
      held.set(worker, question);
      response.on('close', () => held.delete(worker));
      return;
    }
    const slow = question.includes('[slow]');
    const count = slow ? options.slowPieces : options.pieces;
    for (let i = 0; i < count && !gone; i++) {
      response.write(chunk(`part${i + 1}${i + 1 === count ? '.' : ' '}`));
      if (i + 1 < count) await sleep(slow ? options.slowPieceDelayMs : options.pieceDelayMs);
    }
    if (gone) return;
    response.write(chunk(null, { usage: { prompt_tokens: 100, completion_tokens: count, total_tokens: 100 + count } }));
    response.end('data: [DONE]\n\n');
  }

  const server = createServer((request, response) => void handle(request, response).catch(() => response.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrlFor: (worker) => `${origin}/${worker}/v1`,
    requests,
    held,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
