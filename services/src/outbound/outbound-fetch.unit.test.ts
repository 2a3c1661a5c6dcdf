import { gzipSync } from 'node:zlib';
import type { LookupAddress } from 'node:dns';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';
import { createBrowserLikeTransport } from './browser-like.transport.js';
import { guardedLookup, type Resolver } from './guarded-lookup.js';
import { emptyOutboundAllowlist, parseOutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError } from './outbound-error.js';
import { createOutboundFetch, type OutboundFetch } from './outbound-fetch.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

/** Names the tests resolve themselves; every one of them points at this machine. */
const table: Record<string, string[]> = {
  'site.test': ['127.0.0.1'],
  'evil.test': ['127.0.0.1'],
  'mixed.test': ['127.0.0.2', '127.0.0.1'],
};
const resolve: Resolver = async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const { transport, close: closeTransport } = createBrowserLikeTransport();
let server: TestServer;
let secondServer: TestServer;
let seenHeaders: Record<string, string | string[] | undefined> = {};

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    seenHeaders = request.headers;
    const path = url.pathname;
    if (path === '/page') {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end('<h1>Hello</h1>');
    } else if (path === '/big') {
      response.setHeader('content-type', 'text/plain');
      response.end(Buffer.alloc(400 * 1024, 'a'));
    } else if (path === '/bomb') {
      // 64 MB of zeros, a few dozen KB on the wire.
      response.setHeader('content-type', 'text/html');
      response.setHeader('content-encoding', 'gzip');
      response.end(gzipSync(Buffer.alloc(64 * 1024 * 1024)));
    } else if (path === '/slow') {
      response.setHeader('content-type', 'text/html');
      response.write('<p>'); // and never finishes
    } else if (path === '/loop-a') redirect(response, '/loop-b');
    else if (path === '/loop-b') redirect(response, '/loop-a');
    else if (path.startsWith('/chain/')) redirect(response, `/chain/${Number(path.split('/')[2]) + 1}`);
    else if (path === '/to-loopback') redirect(response, server.url('/secret'));
    else if (path === '/to-evil') redirect(response, server.url('/secret', 'evil.test'));
    else if (path === '/to-mapped') redirect(response, `http://[::ffff:127.0.0.1]:${server.port}/secret`);
    else if (path === '/to-file') redirect(response, 'file:///etc/passwd');
    else if (path === '/to-other-origin') redirect(response, secondServer.url('/headers'));
    else if (path === '/to-page') redirect(response, '/page#top');
    else if (path === '/secret') response.end('internal data');
    else {
      response.statusCode = 404;
      response.end('not here');
    }
  });
  secondServer = await startTestServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ authorization: request.headers.authorization ?? null }));
  }, '127.0.0.2');
});
afterAll(async () => {
  closeTransport();
  await server.close();
  await secondServer.close();
});

function redirect(response: import('node:http').ServerResponse, location: string) {
  response.statusCode = 302;
  response.setHeader('location', location);
  response.end();
}

const fetchWith = (allowlist: string, limits = {}): OutboundFetch =>
  createOutboundFetch({ transport, allowlist: parseOutboundAllowlist(allowlist), resolve, limits });

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('the guarded outbound fetch', () => {
  it('fetches an allowlisted site with browser-like headers', async () => {
    const response = await fetchWith('127.0.0.1')({ url: server.url('/page') });
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('text/html');
    expect(Buffer.from(response.body).toString()).toBe('<h1>Hello</h1>');
    expect(response.truncated).toBe(false);
    expect(String(seenHeaders['user-agent'])).toMatch(/Mozilla\/5\.0/);
    expect(String(seenHeaders['accept-language'])).not.toBe('');
  });

  it('refuses loopback by default, without the request reaching the server', async () => {
    const before = server.requests.length;
    const error = await refusal(
      createOutboundFetch({ transport, allowlist: emptyOutboundAllowlist, resolve })({ url: server.url('/secret') }),
    );
    expect(error.reason).toBe('blocked-address');
    expect(error.range).toBe('loopback');
    expect(error.message).toBe('127.0.0.1 is in this machine (loopback) and is never fetched.');
    expect(server.requests.length).toBe(before);
  });

  it('refuses a name that resolves to a private address, checked where the socket connects', async () => {
    const before = server.requests.length;
    const error = await refusal(fetchWith('site.test')({ url: server.url('/secret', 'evil.test') }));
    expect(error.reason).toBe('blocked-address');
    expect(error.message).toBe(
      'evil.test points to 127.0.0.1, which is in this machine (loopback), and is never fetched.',
    );
    expect(server.requests.length).toBe(before);
  });

  it('refuses a name with one private address among its answers', async () => {
    const error = await refusal(fetchWith('127.0.0.2')({ url: server.url('/page', 'mixed.test') }));
    expect(error.reason).toBe('blocked-address');
  });

  it.each([
    ['/to-loopback', 'a literal loopback address'],
    ['/to-evil', 'a name that resolves to loopback'],
    ['/to-mapped', 'an IPv4-mapped IPv6 loopback address'],
  ])('refuses a redirect from an allowed site to %s (%s)', async (path) => {
    const before = server.requests.filter((requested) => requested === '/secret').length;
    const error = await refusal(fetchWith('site.test')({ url: server.url(path, 'site.test') }));
    expect(error.reason).toBe('blocked-address');
    expect(server.requests.filter((requested) => requested === '/secret').length).toBe(before);
  });

  it('judges the address at each connection, so a name that rebinds to a private address is refused', async () => {
    // First answer: an allowed address; later answers: loopback. Connections are not kept alive, so
    // every request resolves again — a guard that checked once up front would be fooled.
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    const rebound = await startTestServer((_request, response) => {
      response.setHeader('connection', 'close');
      response.end('ok');
    }, '127.0.0.2');
    try {
      const guarded = createOutboundFetch({
        transport,
        allowlist: parseOutboundAllowlist('127.0.0.2/32'),
        resolve: rebinding,
      });
      const first = await guarded({ url: rebound.url('/one', 'rebind.test') });
      expect(Buffer.from(first.body).toString()).toBe('ok');
      const error = await refusal(guarded({ url: rebound.url('/two', 'rebind.test') }));
      expect(error.reason).toBe('blocked-address');
    } finally {
      await rebound.close();
    }
  });

  it('refuses the metadata address and IPv6 private forms at lookup, before any connection', async () => {
    const policy = createAddressPolicy(emptyOutboundAllowlist);
    const lookupOf = (answer: string) =>
      guardedLookup({
        policy,
        resolve: async () => [{ address: answer, family: answer.includes(':') ? 6 : 4 }],
        url: 'http://x.test/',
      });
    for (const [answer, range] of [
      ['169.254.169.254', 'metadata'],
      ['fe80::1', 'link-local'],
      ['fd00::5', 'unique-local'],
      ['::ffff:10.0.0.8', 'private'],
      ['100.100.100.200', 'carrier-grade-nat'],
    ] as const) {
      const error = await new Promise<Error | null>((done) =>
        lookupOf(answer)('x.test', { all: true }, (caught) => done(caught)),
      );
      expect(error).toBeInstanceOf(OutboundError);
      expect((error as OutboundError).range).toBe(range);
    }
    const literal = await refusal(fetchWith('')({ url: 'http://169.254.169.254/latest/meta-data/' }));
    expect(literal.range).toBe('metadata');
    const mapped = await refusal(fetchWith('')({ url: 'http://[::ffff:a9fe:a9fe]/' }));
    expect(mapped.range).toBe('metadata');
    const decimal = await refusal(fetchWith('')({ url: 'http://2130706433/' }));
    expect(decimal.range).toBe('loopback');
  });

  it('opens no connection at all for a refused https name (no protocol probe around the guard)', async () => {
    // A scraping client that probes https sites for HTTP/2 does it with its own TLS connection and the
    // system resolver, around the guard; the transport makes no such probe. A raw TCP listener counts every connection that reaches it.
    let connections = 0;
    const listener = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const port = (listener.address() as AddressInfo).port;
    try {
      const system = createOutboundFetch({
        transport,
        allowlist: emptyOutboundAllowlist,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      const error = await refusal(system({ url: `https://localhost:${port}/` }));
      expect(error.reason).toBe('blocked-address');
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((done) => listener.close(() => done()));
    }
  });

  it('fetches only http and https, without credentials in the address', async () => {
    const guarded = fetchWith('127.0.0.1');
    expect((await refusal(guarded({ url: 'ftp://example.com/file' }))).reason).toBe('unsupported-scheme');
    expect((await refusal(guarded({ url: 'file:///etc/passwd' }))).reason).toBe('unsupported-scheme');
    expect((await refusal(guarded({ url: 'javascript:alert(1)' }))).reason).toBe('unsupported-scheme');
    expect((await refusal(guarded({ url: 'not a url' }))).reason).toBe('invalid-url');
    expect((await refusal(guarded({ url: `http://user:pw@127.0.0.1:${server.port}/page` }))).reason).toBe(
      'credentials-in-url',
    );
    expect((await refusal(guarded({ url: server.url('/to-file') }))).reason).toBe('unsupported-scheme');
  });

  it('cuts a page at the size cap and says so, also when the bytes arrive compressed', async () => {
    const guarded = fetchWith('127.0.0.1');
    const big = await guarded({ url: server.url('/big') });
    expect(big.body.byteLength).toBe(300 * 1024);
    expect(big.truncated).toBe(true);
    const bomb = await guarded({ url: server.url('/bomb') });
    expect(bomb.body.byteLength).toBe(300 * 1024);
    expect(bomb.truncated).toBe(true);
  });

  it('gives up on a site that does not answer in time', async () => {
    const error = await refusal(fetchWith('127.0.0.1', { timeoutMs: 400 })({ url: server.url('/slow') }));
    expect(error.reason).toBe('timeout');
  });

  it('follows redirects within limits, drops the fragment for loop detection, and catches loops', async () => {
    const guarded = fetchWith('127.0.0.1');
    const followed = await guarded({ url: server.url('/to-page') });
    expect(followed.url).toBe(server.url('/page#top'));
    expect(followed.redirects).toEqual([server.url('/page#top')]);
    expect((await refusal(guarded({ url: server.url('/loop-a') }))).reason).toBe('redirect-loop');
    const chain = await refusal(guarded({ url: server.url('/chain/1') }));
    expect(chain.reason).toBe('too-many-redirects');
    expect(chain.message).toBe('The address redirected more than 5 times.');
  });

  it('does not carry credentials to another origin through a redirect', async () => {
    const response = await fetchWith('127.0.0.1,127.0.0.2')({
      url: server.url('/to-other-origin'),
      headers: { authorization: 'Bearer secret' },
    });
    expect(JSON.parse(Buffer.from(response.body).toString())).toEqual({ authorization: null });
  });

  it('names unreachable and unresolvable sites', async () => {
    const closed = await startTestServer(() => undefined);
    const closedUrl = closed.url('/');
    await closed.close();
    expect((await refusal(fetchWith('127.0.0.1')({ url: closedUrl }))).reason).toBe('unreachable');
    const unknown = await refusal(fetchWith('')({ url: 'http://nowhere.test/' }));
    expect(unknown.reason).toBe('unresolvable');
    expect(unknown.message).toBe('The site nowhere.test could not be found.');
  });

  it('returns error statuses as they are: the caller decides what a 404 means', async () => {
    const response = await fetchWith('127.0.0.1')({ url: server.url('/missing') });
    expect(response.status).toBe(404);
  });
});
