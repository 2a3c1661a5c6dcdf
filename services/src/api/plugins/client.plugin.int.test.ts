import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';

const gate = await postgresAvailability();

/** The prerendered page's inline starter script, as the build writes one (its hash must be in the policy). */
const ABOUT_SCRIPT = `(function(){var s=document.createElement('script');s.type='module';s.src="/assets/app-1a2b3c.js";document.head.appendChild(s);})()`;

/**
 * A small build: the shells, a prerendered page, a hashed asset (with its brotli sibling) and the worker.
 * Beside it (outside the build) lies a file nobody may read through the API.
 */
function writeDist() {
  const parent = mkdtempSync(join(tmpdir(), 'kesher-dist-'));
  writeFileSync(join(parent, 'secret.txt'), 'outside the build');
  const dist = join(parent, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kesher</title><div id="root"></div>');
  mkdirSync(join(dist, 'prerendered'));
  writeFileSync(
    join(dist, 'prerendered', 'about.html'),
    `<!doctype html><title>Kesher about</title><style>h1{color:red}</style><div id="root"><h1>About</h1></div><script>${ABOUT_SCRIPT}</script>`,
  );
  writeFileSync(join(dist, 'visitor.html'), '<!doctype html><title>Kesher visitor</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
  writeFileSync(join(dist, 'assets', 'app-1a2b3c.js.br'), brotliCompressSync('console.log("app")'));
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  return dist;
}

describe.skipIf(!gate.available)('serving the built client next to the API', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness({ clientDistDir: writeDist() });
  });
  afterAll(async () => h?.close());

  it('serves the shell for client routes, assets with long caching, and leaves /api alone', async () => {
    for (const url of ['/', '/dashboard', '/chat/1/abc?x=1']) {
      const response = await h.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    // /about has a prerendered page; / has none in this dist, so it gets the shell.
    expect((await h.app.inject({ url: '/about' })).body).toContain('Kesher about');
    expect((await h.app.inject({ url: '/about?x=1' })).body).toContain('Kesher about');
    expect((await h.app.inject({ url: '/' })).body).toContain('<title>Kesher</title>');
    for (const url of ['/embed/token', '/public-chat/7/abc?session_token=x', '/shared-chat/tok']) {
      const response = await h.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Kesher visitor');
    }
    const asset = await h.app.inject({ url: '/assets/app-1a2b3c.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const compressed = await h.app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toContain('immutable');
    expect((await h.app.inject({ url: '/sw.js' })).headers['cache-control']).toBe('no-cache');
    const api = await h.app.inject({ url: '/api/v1/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Resource not found.', code: 'common.notFound' });
  });

  it('lets other sites frame only the embed page', async () => {
    const embed = await h.app.inject({ url: '/embed/token' });
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.headers['content-security-policy']).toMatch(/; frame-ancestors \*$/);
    for (const url of ['/dashboard', '/public-chat/7', '/about', '/sw.js']) {
      const response = await h.app.inject({ url });
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.headers['content-security-policy'], url).toMatch(/; frame-ancestors 'self'$/);
    }
  });

  it('puts a Content-Security-Policy on every page: scripts from this origin, or inline only by the hash of what the build wrote', async () => {
    const hash = `'sha256-${createHash('sha256').update(ABOUT_SCRIPT).digest('base64')}'`;
    const directives = (url: string) =>
      h.app.inject({ url }).then((response) => {
        const policy = String(response.headers['content-security-policy']);
        return Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
      });
    const about = await directives('/about');
    expect(about['script-src']).toEqual(["'self'", hash, 'https://accounts.google.com/gsi/client']);
    expect(about['default-src']).toEqual(["'self'"]);
    // The owner app previews the owner's website (a frame, probed first with an <object>); the visitor pages embed nothing.
    expect(about['frame-src']).toEqual(["'self'", 'https:', 'http:']);
    expect(about['object-src']).toEqual(["'self'", 'https:', 'http:']);
    for (const url of ['/public-chat/7/abc', '/embed/tok']) {
      const visitor = await directives(url);
      expect(visitor['object-src'], url).toEqual(["'none'"]);
      expect(visitor['frame-src'], url).toEqual(["'self'"]);
    }
    for (const url of ['/dashboard', '/', '/public-chat/7/abc', '/shared-chat/tok', '/embed/tok']) {
      const page = await directives(url);
      expect(page['script-src'], url).toEqual(["'self'", 'https://accounts.google.com/gsi/client']);
      expect(page['script-src'], url).not.toContain("'unsafe-inline'");
      expect(page['script-src'], url).not.toContain("'unsafe-eval'");
    }
    // The service worker works under the policy it is served with: it fetches from this origin.
    expect((await directives('/sw.js'))['connect-src']).toContain("'self'");
  });

  it('answers a path out of the build exactly like an unknown path, whether the file exists or not', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    // Raw HTTP: fetch and inject would resolve the dots before sending.
    const get = (path: string) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, type: String(response.headers['content-type']), body }),
          );
        })
          .on('error', reject)
          .end();
      });
    const unknown = await get('/no-such-page');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toContain('<div id="root">');
    const probes = [
      ['/../secret.txt', '/../missing.txt'],
      ['/%2e%2e/secret.txt', '/%2e%2e/missing.txt'],
      ['/%2e%2e%2fsecret.txt', '/%2e%2e%2fmissing.txt'],
      ['/assets/..%2f..%2fsecret.txt', '/assets/..%2f..%2fmissing.txt'],
      ['/..%5csecret.txt', '/..%5cmissing.txt'],
      ['/../../../../../../etc/passwd', '/../../../../../../etc/no-such-file'],
      [
        '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
        '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fno-such-file',
      ],
    ];
    for (const [existing, missing] of probes) {
      const [a, b] = [await get(existing!), await get(missing!)];
      expect(a, existing).toEqual(b);
      expect(a, existing).toEqual(unknown);
    }
  });
});

describe.skipIf(!gate.available)('the built client and the rate limit', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness({ clientDistDir: writeDist(), env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(async () => h?.close());

  it("never answers the app's own files with 429, while the API stays limited", async () => {
    const remoteAddress = '10.7.7.7';
    for (let i = 0; i < 4; i++) {
      for (const url of ['/assets/app-1a2b3c.js', '/sw.js', '/about', '/dashboard', '/public-chat/7']) {
        expect((await h.app.inject({ url, remoteAddress })).statusCode, url).toBe(200);
      }
    }
    const api = [];
    for (let i = 0; i < 7; i++)
      api.push((await h.app.inject({ url: `/api/v1/nothing-${i}`, remoteAddress })).statusCode);
    expect(api).toEqual([404, 404, 404, 404, 404, 429, 429]);
  });
});
