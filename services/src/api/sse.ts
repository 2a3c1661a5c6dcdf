import { once } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One server-sent event; `data` is sent as JSON on one line. */
export interface SseMessage {
  event: string;
  data: unknown;
  id?: number | string;
}

export interface SseOptions {
  /**
   * A comment line is sent after this long without an event, so proxies and load balancers that close
   * idle connections keep a slow answer's stream open, and a client that left is noticed by the failed write.
   */
  heartbeatMs?: number;
}

export const SSE_HEARTBEAT_MS = 15_000;

/** The wire form of one event (the spec's framing: `id`, `event`, `data`, a blank line). */
export const formatSse = (message: SseMessage) =>
  `${message.id === undefined ? '' : `id: ${message.id}\n`}event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`;

/**
 * The one way a route answers with server-sent events. It takes the reply over, sends the event-stream
 * headers (no caching, no proxy buffering), writes each message of `produce` as it comes — waiting for
 * the socket to drain when the client reads slower than the server writes — with heartbeats in the
 * quiet stretches, and ends the response when the messages end. When the client goes away the signal
 * given to `produce` is aborted, so whatever feeds the stream stops at once.
 */
export async function sendSse(
  request: FastifyRequest,
  reply: FastifyReply,
  produce: (signal: AbortSignal) => AsyncIterable<SseMessage>,
  options: SseOptions = {},
): Promise<void> {
  const raw = reply.raw;
  const gone = new AbortController();
  const leave = () => gone.abort();
  // The response's 'close' fires when the client disconnects (and after a normal end, harmlessly).
  raw.on('close', leave);
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Sent at once so the client (and any proxy) sees the stream open before the first event.
  raw.flushHeaders();
  const write = async (chunk: string) => {
    if (gone.signal.aborted || raw.writableEnded) return;
    if (!raw.write(chunk)) await Promise.race([once(raw, 'drain'), once(gone.signal, 'abort')]).catch(() => undefined);
  };
  const heartbeatMs = options.heartbeatMs ?? SSE_HEARTBEAT_MS;
  let heartbeat: NodeJS.Timeout | undefined;
  const quiet = () => {
    clearTimeout(heartbeat);
    heartbeat = setTimeout(() => {
      void write(': heartbeat\n\n');
      quiet();
    }, heartbeatMs);
  };
  quiet();
  try {
    for await (const message of produce(gone.signal)) {
      await write(formatSse(message));
      if (gone.signal.aborted) break;
      quiet();
    }
  } catch (error) {
    // Headers are gone already: the client sees the stream end without a final event and falls back.
    request.log.error({ err: error }, 'event stream failed');
  } finally {
    clearTimeout(heartbeat);
    raw.off('close', leave);
    if (!raw.writableEnded) raw.end();
  }
}
