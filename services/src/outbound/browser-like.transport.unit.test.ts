import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserDisguise, createBrowserLikeTransport } from './browser-like.transport.js';
import { ACCEPT_ENCODING, createNodeHttpTransport } from './node-http.transport.js';
import { parseOutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError } from './outbound-error.js';
import { createOutboundFetch } from './outbound-fetch.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

/**
 * A server closes a kept-alive connection while it lies idle; the client's next request, sent on it at that
 * moment, is reset before any answer. The server here does it on purpose: the second request of every
 * connection is dropped unanswered, as if it had closed the connection just then.
 */
describe.each([
  ['browser-like', createBrowserLikeTransport],
  ['plain', createNodeHttpTransport],
])('the %s transport on a kept-alive connection the server closed', (_name, create) => {
  const { transport, close } = create();
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

describe('the browser-like transport as a site sees it', () => {
  const { transport, close } = createBrowserLikeTransport();
  const fetch = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('127.0.0.1') });
  const seen: { raw: string[]; headers: IncomingHttpHeaders }[] = [];
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      seen.push({ raw: request.rawHeaders, headers: request.headers });
      const page = Buffer.from('<p>שלום, a page</p>');
      if (request.url === '/gzip') return response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(page));
      if (request.url === '/br')
        return response.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync(page));
      response.writeHead(200).end(page);
    });
  });
  afterAll(async () => {
    close();
    await server.close();
  });

  it("sends one browser's headers, in a browser's case, on every request", async () => {
    await fetch({ url: server.url('/one') });
    await fetch({ url: server.url('/two') });
    const [first, second] = seen;
    expect(first!.headers['user-agent']).toMatch(/^Mozilla\/5\.0 /);
    expect(first!.headers['accept-language']).toMatch(/he-IL/);
    expect(second!.headers['user-agent']).toBe(first!.headers['user-agent']);
    // Header names as a browser writes them (Node would send them as given, lower-case).
    const names = first!.raw.filter((_, index) => index % 2 === 0);
    expect(names).toContain('User-Agent');
    expect(names).toContain('Accept-Language');
  });

  it('asks only for encodings it can decode, and decodes them', async () => {
    for (const path of ['/gzip', '/br']) {
      const page = await fetch({ url: server.url(path) });
      expect(Buffer.from(page.body).toString()).toBe('<p>שלום, a page</p>');
    }
    const offered = seen.at(-1)!.headers['accept-encoding'];
    expect(offered).toBe(ACCEPT_ENCODING);
    const zlib: object = (await import('node:zlib')).default;
    const decodesZstd = 'createZstdDecompress' in zlib;
    expect(offered!.includes('zstd')).toBe(decodesZstd);
  });
});

describe('the browser-like transport over TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kesher-tls-'));
  // A certificate for 127.0.0.1 that no authority signed (openssl is part of the machine's base system).
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  const server = https.createServer({ key, cert }, (_request, response) => response.end('secret page'));
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((closed) => server.close(closed));
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a certificate no authority signed', async () => {
    const { transport, close } = createBrowserLikeTransport();
    const fetch = createOutboundFetch({ transport, allowlist: parseOutboundAllowlist('127.0.0.1') });
    try {
      await expect(fetch({ url: `https://127.0.0.1:${port}/` })).rejects.toMatchObject({ reason: 'unreachable' });
    } finally {
      close();
    }
  });

  it("shakes hands with the browser's TLS settings, which Node accepts as they are", async () => {
    const settings = browserDisguise().tls;
    expect(settings.ciphers).toMatch(/^TLS_AES_128_GCM_SHA256:/);
    expect(settings.sigalgs).toBeTruthy();
    expect(settings.rejectUnauthorized).toBe(true);
    // The same settings, trusting this one certificate, complete a handshake.
    const socket = tls.connect({ ...settings, host: '127.0.0.1', port, ca: cert });
    await new Promise<void>((connected, failed) => socket.once('secureConnect', connected).once('error', failed));
    expect([socket.authorized, socket.getProtocol()]).toEqual([true, 'TLSv1.3']);
    socket.destroy();
  });
});
