import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { CHROMIUM } from './browser';

/**
 * Issue 22 item 1: the widget on a customer's website when the visitor's browser blocks third-party
 * cookies and storage (Chrome Incognito, Brave, Safari, "block third-party cookies"). The page is
 * served from another origin (127.0.0.1, where Kesher is localhost) and the Chromium profile blocks
 * third-party cookies — which also denies the embed frame its localStorage, as the test checks first —
 * with nothing that turns them back on. The panel used to stay blank ("Access is denied for this
 * document"); now the visitor sends a message and reads the answer.
 */
const baseUrl = inject('baseUrl');
const email = `blocked-storage-${Date.now()}@example.com`;
const password = 'Kesher-Blocked-2026!';
const assistantName = 'Quayside Bakery';
const fact = 'The Quayside Bakery bakes walnut loaves every Friday at seven in the morning.';

let token: string;
let shareToken: string;
let host: Server;
let hostUrl: string;
let profile: string;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

const api = apiClient(baseUrl, () => token);

beforeAll(async () => {
  token = (
    await api.call<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
  ).access_token;
  const assistantId = (
    await api.call<{ assistant_id: number }>('/assistants/', {
      method: 'POST',
      body: JSON.stringify({
        name: assistantName,
        description: 'Bread by the quay.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await api.upload(assistantId, 'quayside.txt', `${fact}\n`);
  shareToken = (
    await api.call<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;
  // The file is ingested before the visitor asks (a hook cannot use expect.poll: the API is asked until it says so).
  for (;;) {
    const files = await api.call<{ status: string }[]>(`/assistants/${assistantId}/files`);
    if (files.map((f) => f.status).join() === 'ready') break;
    if (files.some((f) => f.status === 'failed')) throw new Error('the knowledge file failed to ingest');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const kesher = new URL(baseUrl).origin;
  host = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quayside Bakery</title></head><body>
<h1>Quayside Bakery</h1>
<script src="${kesher}/widget.js" data-share-token="${shareToken}" async></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;

  // Third-party cookies blocked in the profile (cookie_controls_mode 1: what "Block third-party cookies"
  // and Incognito set); no flag, preference or exception lets them back in.
  profile = mkdtempSync(join(tmpdir(), 'kesher-blocked-storage-'));
  mkdirSync(join(profile, 'Default'), { recursive: true });
  writeFileSync(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { cookie_controls_mode: 1, block_third_party_cookies: true } }),
  );
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((resolve) => host?.close(resolve));
});

describe('the widget on another origin with third-party cookies and storage blocked', () => {
  it('opens, takes a message and shows the answer', async () => {
    await page.goto(hostUrl);
    const button = page.getByRole('button', { name: /^(Open|Minimize) chat$/ });
    await button.click();

    // The browser really denies the embed frame its storage.
    await expect.poll(() => page.frames().find((f) => f.url().includes('/embed/'))).toBeTruthy();
    const embed = page.frames().find((f) => f.url().includes('/embed/'))!;
    await embed.waitForLoadState('domcontentloaded');
    const storage = await embed.evaluate(() => {
      try {
        window.localStorage.getItem('language');
        return 'allowed';
      } catch (error) {
        return `refused: ${(error as Error).message}`;
      }
    });
    expect(storage).toMatch(/^refused/);

    const frame = page.frameLocator('kesher-widget iframe');
    await frame.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    const input = frame.getByLabel(/^(Message|הודעה)$/);
    await input.fill('When do you bake walnut loaves?');
    await input.press('Enter');
    await frame.locator('.embed-msg-user').getByText('When do you bake walnut loaves?').waitFor();
    await frame
      .locator('.embed-msg-assistant')
      .getByText(/walnut loaves every Friday at seven in the morning/)
      .waitFor({ timeout: 60_000 });
    expect(pageErrors).toEqual([]);
  });
});
