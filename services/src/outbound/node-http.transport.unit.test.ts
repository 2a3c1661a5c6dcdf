import type { LookupAddress } from 'node:dns';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from './guarded-lookup.js';
import { createNodeHttpTransport } from './node-http.transport.js';
import { emptyOutboundAllowlist, parseOutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError } from './outbound-error.js';
import { createOutboundFetch } from './outbound-fetch.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

/** Names resolved by the test itself: both point at this machine. */
const table: Record<string, string[]> = { 'api.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'] };
const resolve: Resolver = async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address): LookupAddress => ({ address, family: 4 }));
};

const { transport, close } = createNodeHttpTransport();
let server: TestServer;
const seen: { method: string; body: string }[] = [];

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', body });
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path === '/echo')
        return response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: request.method, body }));
      if (path === '/see-other') return response.writeHead(303, { location: '/echo' }).end();
      if (path === '/to-private') return response.writeHead(307, { location: server.url('/echo', 'evil.test') }).end();
      if (path === '/bomb')
        return response
          .writeHead(200, { 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.alloc(5 * 1024 * 1024, 'a')));
      if (path === '/slow') return void setTimeout(() => response.end('late'), 20_000).unref();
      response.writeHead(404).end();
    });
  });
});
afterAll(async () => {
  close();
  await server?.close();
});

const guarded = (allow: string, limits = {}) =>
  createOutboundFetch({ transport, allowlist: parseOutboundAllowlist(allow), resolve, limits });
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
};

describe('the plain HTTP transport behind the guarded fetch (API actions)', () => {
  it('sends the method and body, and a 303 continues as a GET without the body', async () => {
    const sent = await guarded('api.test')({
      url: server.url('/echo', 'api.test'),
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(JSON.parse(Buffer.from(sent.body).toString())).toEqual({ method: 'POST', body: '{"a":1}' });
    const after = await guarded('api.test')({
      url: server.url('/see-other', 'api.test'),
      method: 'POST',
      body: '{"a":1}',
    });
    expect(JSON.parse(Buffer.from(after.body).toString())).toEqual({ method: 'GET', body: '' });
  });

  it('refuses loopback by default and a redirect to a name that resolves to it, without reaching the server', async () => {
    const before = seen.length;
    expect(
      (
        await refusal(
          createOutboundFetch({ transport, allowlist: emptyOutboundAllowlist, resolve })({ url: server.url('/echo') }),
        )
      ).reason,
    ).toBe('blocked-address');
    expect(seen.length).toBe(before);
    const error = await refusal(
      guarded('api.test')({ url: server.url('/to-private', 'api.test'), method: 'PUT', body: 'x' }),
    );
    expect(error.reason).toBe('blocked-address');
    // The first hop was answered; the redirected one never arrived.
    expect(seen.length).toBe(before + 1);
  });

  it('caps a compressed body after decompression, and gives up on a slow answer in time', async () => {
    const bomb = await guarded('127.0.0.1')({ url: server.url('/bomb'), maxBytes: 64 * 1024 });
    expect(bomb.body.byteLength).toBe(64 * 1024);
    expect(bomb.truncated).toBe(true);
    const started = Date.now();
    expect((await refusal(guarded('127.0.0.1')({ url: server.url('/slow'), timeoutMs: 300 }))).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000); // the server answers at 20 s
  });
});
