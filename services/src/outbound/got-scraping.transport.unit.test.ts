import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGotScrapingTransport } from './got-scraping.transport.js';
import { parseOutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError } from './outbound-error.js';
import { createOutboundFetch } from './outbound-fetch.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

/**
 * A server closes a kept-alive connection while it lies idle; the client's next request, sent on it at that
 * moment, is reset before any answer. The server here does it on purpose: the second request of every
 * connection is dropped unanswered, as if it had closed the connection just then.
 */
describe('the got-scraping transport on a kept-alive connection the server closed', () => {
  const { transport, close } = createGotScrapingTransport();
  const fetch = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('127.0.0.1') });
  let server: TestServer;
  const requestsOn = new WeakMap<Socket, number>();
  const dropped: string[] = [];

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      const socket = request.socket;
      const count = (requestsOn.get(socket) ?? 0) + 1;
      requestsOn.set(socket, count);
      if (count === 2) {
        dropped.push(`${request.method} ${request.url}`);
        socket.destroy();
        return;
      }
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${request.url}`));
    });
  });
  afterAll(async () => {
    close();
    await server.close();
  });

  it('asks for a page again on a fresh connection, once, instead of calling the site unreachable', async () => {
    expect(Buffer.from((await fetch({ url: server.url('/first') })).body).toString()).toBe('page /first');
    // Sent on the first request's kept-alive connection, which the server drops: answered on a new one.
    const second = await fetch({ url: server.url('/second') });
    expect([second.status, Buffer.from(second.body).toString()]).toEqual([200, 'page /second']);
    expect(dropped).toEqual(['GET /second']);
    expect(server.requests.filter((path) => path === '/second')).toHaveLength(2);
  });

  it('sends it again on a new connection, not on another idle one the site has closed too', async () => {
    // Three connections kept alive at once: each answered one request, and drops the next.
    await Promise.all(['/a', '/b', '/c'].map((path) => fetch({ url: server.url(path) })));
    dropped.length = 0;
    const page = await fetch({ url: server.url('/after-idle') });
    expect([page.status, Buffer.from(page.body).toString()]).toEqual([200, 'page /after-idle']);
    expect(dropped).toEqual(['GET /after-idle']);
  });

  it('does not send a POST again: the site may have received it', async () => {
    // A connection that has answered once, kept alive for the POST.
    await fetch({ url: server.url('/warm') });
    dropped.length = 0;
    const posted = fetch({ url: server.url('/action'), method: 'POST', body: '{}' });
    await expect(posted).rejects.toBeInstanceOf(OutboundError);
    await expect(posted).rejects.toMatchObject({ reason: 'unreachable' });
    expect(dropped).toEqual(['POST /action']);
    expect(server.requests.filter((path) => path === '/action')).toHaveLength(1);
  });
});
