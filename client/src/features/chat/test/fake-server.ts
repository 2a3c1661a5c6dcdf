import { vi } from 'vitest';

/**
 * The chat's HTTP boundary for component tests: `fetch` answered by a table of `METHOD /path` handlers
 * (an unknown call fails the test), plus a server-sent-events body the test feeds event by event.
 */
export type Handler = (request: {
  url: URL;
  body: unknown;
  signal: AbortSignal | undefined;
}) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function stubFetch(handlers: Record<string, Handler>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ key, body });
    const handler = handlers[key];
    if (!handler) throw new Error(`unexpected call: ${key}`);
    return handler({ url, body, signal: init?.signal ?? undefined });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function sseBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    /** Like a real fetch, an aborted request breaks the body off. */
    response: (signal?: AbortSignal) => {
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    },
    send: (event: string, data: unknown) =>
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    close: () => controller.close(),
  };
}

export const serverMessage = (
  id: string,
  role: 'user' | 'assistant',
  text: string,
  sources: { file_id: string; filename: string; source_url: string | null }[] = [],
) => ({
  id,
  object: 'thread.message',
  thread_id: 'thread_1',
  role,
  content: [{ type: 'text', text: { value: text, annotations: [] } }],
  created_at: 1_700_000_000,
  run_id: role === 'assistant' ? 'run_1' : null,
  sources: sources.map((s) => ({ ...s, section: null })),
});

export const serverRun = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'run_1',
  run_id: 'run_1',
  object: 'thread.run',
  thread_id: 'thread_1',
  status,
  last_error: null,
  message_id: null,
  ...extra,
});
