import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('serving the built client next to the API', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kesher-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kesher</title><div id="root"></div>');
    mkdirSync(join(dist, 'prerendered'));
    writeFileSync(join(dist, 'prerendered', 'about.html'), '<!doctype html><title>Kesher about</title><div id="root"><h1>About</h1></div>');
    writeFileSync(join(dist, 'visitor.html'), '<!doctype html><title>Kesher visitor</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    h = await createApiHarness({ clientDistDir: dist });
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
