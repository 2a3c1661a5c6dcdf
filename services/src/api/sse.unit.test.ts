import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendSse, type SseMessage } from './sse.js';

/** A producer the test drives: it yields what the test pushes and records when its signal aborts. */
function controlledProducer() {
  const queue: SseMessage[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const state = { aborted: false, ended: false };
  let abortSeen!: () => void;
  const aborted = new Promise<void>((resolve) => (abortSeen = resolve));
  async function* produce(signal: AbortSignal): AsyncGenerator<SseMessage> {
    signal.addEventListener('abort', () => {
      state.aborted = true;
      abortSeen();
      wake?.();
    });
    try {
      while (!signal.aborted) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (finished) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      state.ended = true;
    }
  }
  return {
    produce,
    state,
    aborted,
    push(message: SseMessage) {
      queue.push(message);
      wake?.();
    },
    finish() {
      finished = true;
      wake?.();
    },
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(produce: (signal: AbortSignal) => AsyncIterable<SseMessage>, heartbeatMs: number) {
  app = Fastify({ forceCloseConnections: true });
  app.get('/stream', async (request, reply) => sendSse(request, reply, produce, { heartbeatMs }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/stream`;
}

/** Reads the raw body as it arrives until `until` holds for what was read so far. */
async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  seen: { text: string },
  until: (text: string) => boolean,
) {
  while (!until(seen.text)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen.text += value;
  }
  return seen.text;
}

describe('sendSse', () => {
  it('sends the event-stream headers at once and each event in the spec framing, then ends with the events', async () => {
    const producer = controlledProducer();
    const url = await serve(producer.produce, 60_000);
    const response = await fetch(url);
    // The headers arrived before any event was produced.
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    producer.push({ event: 'delta', id: 1, data: { text: 'שלום' } });
    producer.push({ event: 'completed', data: { run_id: 'run_1', message: null } });
    producer.finish();
    expect(await response.text()).toBe(
      'id: 1\nevent: delta\ndata: {"text":"שלום"}\n\nevent: completed\ndata: {"run_id":"run_1","message":null}\n\n',
    );
    expect(producer.state).toEqual({ aborted: false, ended: true });
  });

  it('sends a heartbeat comment in every quiet stretch, and none while events flow', async () => {
    const producer = controlledProducer();
    const url = await serve(producer.produce, 40);
    const response = await fetch(url);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const seen = { text: '' };
    await readUntil(reader, seen, (text) => text.split(': heartbeat\n\n').length - 1 >= 2);
    expect(seen.text).toBe(': heartbeat\n\n: heartbeat\n\n');
    producer.push({ event: 'delta', id: 1, data: { text: 'a' } });
    await readUntil(reader, seen, (text) => text.includes('event: delta'));
    producer.finish();
    await readUntil(reader, seen, () => false);
    expect(seen.text.startsWith(': heartbeat\n\n: heartbeat\n\n')).toBe(true);
    expect(seen.text.endsWith('id: 1\nevent: delta\ndata: {"text":"a"}\n\n')).toBe(true);
  });

  it('aborts the producer when the client goes away, so nothing keeps feeding a closed stream', async () => {
    const producer = controlledProducer();
    const url = await serve(producer.produce, 60_000);
    const client = new AbortController();
    const response = await fetch(url, { signal: client.signal });
    producer.push({ event: 'delta', id: 1, data: { text: 'a' } });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await readUntil(reader, { text: '' }, (text) => text.includes('event: delta'));
    client.abort();
    await producer.aborted;
    await expect.poll(() => producer.state.ended).toBe(true);
  });

  it('ends the response without a final event when the producer throws (the client falls back to polling)', async () => {
    async function* broken(): AsyncGenerator<SseMessage> {
      yield { event: 'delta', id: 1, data: { text: 'a' } };
      throw new Error('read model gone');
    }
    const url = await serve(broken, 60_000);
    app!.log.level = 'silent';
    expect(await (await fetch(url)).text()).toBe('id: 1\nevent: delta\ndata: {"text":"a"}\n\n');
  });
});
