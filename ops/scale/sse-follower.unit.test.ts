import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { followStream } from './sse-follower.js';

const delta = (id: number) => `id: ${id}\nevent: delta\ndata: ${JSON.stringify({ text: `p${id} ` })}\n\n`;

/** A server whose answers are scripted per connection: each gets the Last-Event-ID it was sent. */
async function sseServer(
  script: (
    connection: number,
    lastEventId: string | undefined,
    write: (text: string) => void,
    cut: () => void,
    end: () => void,
  ) => void,
) {
  let connections = 0;
  const server: Server = createServer((request, response) => {
    const lastEventId = request.headers['last-event-id'] as string | undefined;
    const connection = connections++;
    if (request.url === '/missing' && connection === 0) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Run not found."}');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'x-kesher-replica': `r${connection}` });
    script(
      connection,
      lastEventId,
      (text) => response.write(text),
      () => response.socket?.destroy(),
      () => response.end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('following a run stream through a balancer', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('reconnects with Last-Event-ID after a cut and gets the rest, once each, and the end', async () => {
    const seenIds: (string | undefined)[] = [];
    const started = await sseServer((connection, lastEventId, write, cut, end) => {
      seenIds.push(lastEventId);
      if (connection === 0) {
        // Three pieces, then the replica dies (the socket is destroyed once they are out).
        write(delta(1) + delta(2) + delta(3));
        setImmediate(cut);
        return;
      }
      const after = Number(lastEventId ?? 0);
      for (let id = after + 1; id <= 5; id++) write(delta(id));
      write(`event: completed\ndata: ${JSON.stringify({ run_id: 'run_1', message: null })}\n\n`);
      end();
    });
    server = started.server;

    const stream = await followStream(started.base, '/stream');

    expect(stream.deltas.map((d) => d.id)).toEqual([1, 2, 3, 4, 5]);
    expect(stream.repeatedIds).toEqual([]);
    expect(stream.end?.event).toBe('completed');
    expect(seenIds).toEqual([undefined, '3']);
    expect(stream.connections.map((c) => [c.replica, c.ended])).toEqual([
      ['r0', 'error'],
      ['r1', 'end-event'],
    ]);
  });

  it('records a replica that refuses the stream (404) with its status, and follows on', async () => {
    const started = await sseServer((_connection, _lastEventId, write, _cut, end) => {
      write(delta(1));
      write(`event: expired\ndata: ${JSON.stringify({ run_id: 'run_1', message: 'expired' })}\n\n`);
      end();
    });
    server = started.server;

    const stream = await followStream(started.base, '/missing');

    expect(stream.connections.map((c) => [c.status, c.ended])).toEqual([
      [404, 'refused'],
      [200, 'end-event'],
    ]);
    expect(stream.connections[0]!.detail).toContain('Run not found.');
    expect(stream.end?.event).toBe('expired');
  });
});
