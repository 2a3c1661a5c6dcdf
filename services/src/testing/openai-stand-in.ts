import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted reply of the stand-in, taken in order for each POST /v1/chat/completions. */
export type StandInReply =
  /** A normal streamed answer: one chunk per piece, a usage chunk, then `data: [DONE]`. */
  | { kind: 'stream'; pieces: string[]; usage?: { prompt_tokens: number; completion_tokens: number } }
  /** An HTTP error with OpenAI's error body. */
  | { kind: 'error'; status: number; message: string }
  /** The stream starts, sends these pieces, then the connection is cut (no [DONE]). */
  | { kind: 'cut'; pieces: string[] }
  /** The stream starts, sends these pieces, then stays open until the client goes away. */
  | { kind: 'hold'; pieces: string[] }
  /** The model asks for tools: each call streamed as tool_calls deltas (arguments in two pieces), finish_reason tool_calls. */
  | { kind: 'tool_calls'; calls: { id: string; name: string; arguments: string }[] };

export interface OpenAiStandIn {
  baseURL: string;
  /** Bodies of the chat completion requests received, in order. */
  requests: {
    model: string;
    messages: {
      role: string;
      content: string | null;
      tool_call_id?: string;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    }[];
    stream: boolean;
    tools?: {
      type: 'function';
      function: { name: string; description?: string; parameters?: Record<string, unknown> };
    }[];
  }[];
  /** How many held streams the client closed (cancellation reached the server). */
  closedByClient: number;
  script(...replies: StandInReply[]): void;
  close(): Promise<void>;
}

const chunk = (content: string | null, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-standin',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'stand-in',
    choices: content === null ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
    ...extra,
  })}\n\n`;

export interface StandInOptions {
  /** How long the "model" thinks before its first chunk (the headers go out at once, as real servers do). */
  firstTokenDelayMs?: number;
  /** The reply when nothing is scripted (benchmarks send many requests); an error reply otherwise. */
  fallback?: StandInReply;
}

/**
 * A local HTTP server speaking the documented Chat Completions streaming wire format (server-sent
 * events: `data: {chat.completion.chunk}` lines, then `data: [DONE]`), scripted reply by reply, so the
 * OpenAI adapter is tested through the real `openai` package and a real socket.
 */
export async function startOpenAiStandIn(options: StandInOptions = {}): Promise<OpenAiStandIn> {
  const queue: StandInReply[] = [];
  const state: OpenAiStandIn = {
    baseURL: '',
    requests: [],
    closedByClient: 0,
    script: (...replies) => queue.push(...replies),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    let body = '';
    for await (const part of request) body += part;
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404).end();
      return;
    }
    state.requests.push(JSON.parse(body));
    const reply = queue.shift() ??
      options.fallback ?? { kind: 'error', status: 500, message: 'stand-in: no reply scripted' };
    if (reply.kind === 'error') {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: reply.message, type: 'server_error', code: null } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (options.firstTokenDelayMs) {
      // As real servers do: the response starts at once, the first token comes when the model has it.
      // (Without a delay the headers leave with the first chunk, so a 'hold' with no pieces never answers.)
      response.flushHeaders();
      await new Promise((resolve) => setTimeout(resolve, options.firstTokenDelayMs));
    }
    if (reply.kind === 'cut') {
      // Cut only once the pieces are on the wire: destroying first would drop them unsent.
      response.write(reply.pieces.map((piece) => chunk(piece)).join(''), () => response.socket?.destroy());
      return;
    }
    if (reply.kind === 'tool_calls') {
      const toolChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'stand-in', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      reply.calls.forEach((call, index) => {
        const half = Math.floor(call.arguments.length / 2);
        response.write(
          toolChunk({
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments.slice(0, half) },
              },
            ],
          }),
        );
        response.write(toolChunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }));
      });
      response.write(toolChunk({}, 'tool_calls'));
      response.end('data: [DONE]\n\n');
      return;
    }
    for (const piece of reply.pieces) response.write(chunk(piece));
    if (reply.kind === 'hold') {
      response.on('close', () => state.closedByClient++);
      return;
    }
    if (reply.usage)
      response.write(
        chunk(null, {
          usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens },
        }),
      );
    response.end('data: [DONE]\n\n');
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
