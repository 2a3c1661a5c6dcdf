import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { CHROMIUM } from './browser';

/**
 * The Content-Security-Policy the server puts on every page of the build (issue 10 item 10), in a real
 * Chromium: the owner app, the prerendered landing pages (their inline starter script is allowed by its
 * hash) and the visitor pages all work with no violation reported, and only /embed may be framed by
 * another site.
 */
const baseUrl = inject('baseUrl');
const email = `csp-owner-${Date.now()}@example.com`;
const password = 'Kesher-Csp-2026!';
const fact = 'The Harbour Bakery bakes rye bread every Monday at six in the morning.';

let profile: string;
let context: BrowserContext;
let page: Page;
let token: string;
let assistantId: number;
let shareToken: string;
let host: Server;
let hostUrl: string;
/** Every violation the pages reported, from the DOM event and from the console. */
const violations: string[] = [];
/**
 * Every violation counts, zod's too: its object schemas used to probe `new Function` once (to compile
 * faster parsers), and the refusal was reported on every page. Every client entry now makes zod jitless
 * before any schema exists (src/lib/zod-jitless.ts), so no page may report an `eval` at all.
 */
const realViolations = async (): Promise<string[]> => [...violations];

const api = apiClient(baseUrl, () => token);

async function open(target: Page, path: string) {
  const response = await target.goto(`${baseUrl}${path}`);
  expect(response?.headers()['content-security-policy'], path).toMatch(/script-src 'self'/);
  return response!;
}

beforeAll(async () => {
  token = (
    await api.call<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
  ).access_token;
  assistantId = (
    await api.call<{ assistant_id: number }>('/assistants/', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Harbour Bakery',
        description: 'Bread by the harbour.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await api.upload(assistantId, 'bakery.txt', `${fact}\n`);
  shareToken = (
    await api.call<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;

  // A customer's site on another origin (127.0.0.1, where Kesher is localhost) framing the embed page and an owner page.
  host = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html lang="en"><head><title>Customer site</title></head><body>
<h1>Customer site</h1>
<iframe id="embed" title="chat" src="${baseUrl}/embed/${shareToken}" width="400" height="600"></iframe>
<iframe id="owner" title="owner" src="${baseUrl}/dashboard" width="400" height="300"></iframe>
</body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;

  // Third-party storage allowed, as Chrome does by default (Debian's Chromium blocks it, and the embed
  // frame cannot start without it yet — see widget.e2e.test.ts).
  profile = mkdtempSync(join(tmpdir(), 'kesher-csp-'));
  mkdirSync(join(profile, 'Default'), { recursive: true });
  writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
    locale: 'en-US',
  });
  // Collected in every frame, before any of the page's own scripts run.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page = context.pages()[0] ?? (await context.newPage());
  const watch = (target: Page) =>
    target.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|CSP violation/i.test(text)) violations.push(`${target.url()}: ${text}`);
    });
  watch(page);
  context.on('page', watch);
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((resolve) => host?.close(resolve));
});

describe('the Content-Security-Policy in a real browser', () => {
  it('lets the prerendered landing pages start the app (inline starter script allowed by its hash)', async () => {
    for (const path of ['/', '/about']) {
      const response = await open(page, path);
      expect(response.headers()['content-security-policy']).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
      expect(response.headers()['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      // The app takes over after the first paint: its entry script is requested by the inline starter.
      await page.waitForFunction(() => [...document.scripts].some((s) => s.src.includes('/assets/index-')));
      await page.waitForLoadState('networkidle');
    }
    expect(await realViolations()).toEqual([]);
  });

  it('runs the owner app: sign-in, the dashboard, the chat with an answer, the widget preview', async () => {
    await open(page, '/login?redirect=/dashboard');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Harbour Bakery').first().waitFor();

    await expect
      .poll(
        async () =>
          (await api.call<{ status: string }[]>(`/assistants/${assistantId}/files`)).map((f) => f.status).join(),
        { timeout: 30_000 },
      )
      .toBe('ready');
    await open(page, `/chat/${assistantId}`);
    const input = page.getByLabel(/^(Message|הודעה)$/);
    await input.fill('When do you bake rye bread?');
    await input.press('Enter');
    await page
      .locator('.chat-msg-assistant')
      .getByText(/rye bread every Monday at six in the morning/)
      .waitFor({ timeout: 45_000 });

    await open(page, `/widget-preview/${assistantId}`);
    await page.waitForLoadState('networkidle');
    // The other owner pages, each parsing its own answers with zod.
    for (const path of [
      '/workflows',
      '/guidelines',
      '/actions',
      '/analytics',
      '/integrations',
      '/billing',
      `/edit-assistant/${assistantId}`,
    ]) {
      await open(page, path);
      await page.waitForLoadState('networkidle');
    }
    expect(await realViolations()).toEqual([]);
  });

  it('runs the visitor pages, and lets only /embed be framed by another site', async () => {
    await open(page, `/shared-chat/${shareToken}`);
    await page.waitForLoadState('networkidle');

    const embed = await open(page, `/embed/${shareToken}`);
    expect(embed.headers()['content-security-policy']).toMatch(/frame-ancestors \*$/);
    await page.getByRole('heading', { name: 'Harbour Bakery', level: 1 }).waitFor();
    const message = page.getByLabel(/^(Message|הודעה)$/);
    await message.fill('When do you bake rye bread?');
    await message.press('Enter');
    await page
      .locator('.embed-msg-assistant')
      .getByText(/rye bread every Monday at six in the morning/)
      .waitFor({ timeout: 45_000 });
    expect(await realViolations()).toEqual([]);

    // On a customer's site: the embed page loads in its frame, the owner app is refused.
    await page.goto(hostUrl);
    const framed = page.frameLocator('#embed');
    await framed.getByRole('heading', { name: 'Harbour Bakery', level: 1 }).waitFor();
    // The owner app refuses: Chromium reports the refused frame against its frame-ancestors 'self'.
    await expect.poll(() => violations.filter((v) => /frame-ancestors 'self'/.test(v)).length).toBeGreaterThan(0);
    expect((await realViolations()).filter((v) => !/frame-ancestors 'self'/.test(v))).toEqual([]);
  });
});
