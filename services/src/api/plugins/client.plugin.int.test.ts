import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';

const gate = await postgresAvailability();

/** A small build: the shells, a prerendered page, a hashed asset (with its brotli sibling) and the worker. */
function writeDist() {
  const dist = mkdtempSync(join(tmpdir(), 'kesher-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kesher</title><div id="root"></div>');
  mkdirSync(join(dist, 'prerendered'));
  writeFileSync(join(dist, 'prerendered', 'about.html'), '<!doctype html><title>Kesher about</title><div id="root"><h1>About</h1></div>');
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
    expect(api.json()).toEqual({ detail: 'Resource not found.' });
  });

  it('lets other sites frame only the embed page', async () => {
    const embed = await h.app.inject({ url: '/embed/token' });
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.headers['content-security-policy']).toBe('frame-ancestors *');
    for (const url of ['/dashboard', '/public-chat/7']) {
      expect((await h.app.inject({ url })).headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });
});

describe.skipIf(!gate.available)('the built client and the rate limit', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness({ clientDistDir: writeDist(), env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(async () => h?.close());

  it('never answers the app\'s own files with 429, while the API stays limited', async () => {
    const remoteAddress = '10.7.7.7';
    for (let i = 0; i < 4; i++) {
      for (const url of ['/assets/app-1a2b3c.js', '/sw.js', '/about', '/dashboard', '/public-chat/7']) {
        expect((await h.app.inject({ url, remoteAddress })).statusCode, url).toBe(200);
      }
    }
    const api = [];
    for (let i = 0; i < 7; i++) api.push((await h.app.inject({ url: `/api/v1/nothing-${i}`, remoteAddress })).statusCode);
    expect(api).toEqual([404, 404, 404, 404, 404, 429, 429]);
  });
});
