import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he } from '../src/features/marketing/locales/he';
import { launchChromium } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

/** The prerendered landing pages (scripts/prerender.tsx) and how the app takes over from them. */
describe('the prerendered landing pages', () => {
  it('sends /about readable in the HTML itself, compressed, without the app script in <head>', async () => {
    const response = await fetch(`${baseUrl}/about`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    const html = await response.text();
    expect(html).toContain(`<h1>${he.hero.title}</h1>`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('<script type="module"');
    // Nothing but the document itself stands before the first paint: the stylesheet is inline.
    expect(head).not.toContain('rel="stylesheet"');
    expect(head).not.toContain('rel="modulepreload"');
    const script = await fetch(`${baseUrl}${/"(\/assets\/index-[^"]+\.js)"/.exec(html)![1]}`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(script.headers.get('content-encoding')).toBe('br');
  });

  it('a first-time visitor sees the Hebrew page at once, then the app takes over the same markup', async () => {
    const context = await browser.newContext({ baseURL: baseUrl });
    // The heading as the HTML parser made it, before any of the app's code could run.
    await context.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () =>
        Object.assign(window, { parsedHeading: document.querySelector('h1') }),
      ),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/about', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1, name: he.hero.title }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.prerendered)).toBe('1');
    // Until the app has taken over, the snapshot's buttons do nothing; once it has, a double click on
    // the language button switches to English (spec part 2 §2).
    const english = page.getByRole('heading', { level: 1, name: 'AI assistants that know your business' });
    await expect
      .poll(
        async () => {
          await page.locator('.language-switcher > button').dblclick();
          return english.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('header.site-header').count()).toBe(1);
    // The app hydrated the page: it kept the very elements the HTML made (a mismatch would rebuild them
    // and report an error).
    expect(
      await page.evaluate(
        () => (window as unknown as { parsedHeading: Element }).parsedHeading === document.querySelector('h1'),
      ),
    ).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a reader who scrolled the snapshot stays where they are when the app takes over', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 700 } });
    const page = await context.newPage();
    await page.goto('/about', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1, name: he.hero.title }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 1500));
    // React marks the root element once it has adopted it; then let its effects run (two frames).
    await page.waitForFunction(
      () => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
      null,
      { timeout: 15_000 },
    );
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await context.close();
  });

  it('an English reader gets the app, not the Hebrew snapshot', async () => {
    const context = await browser.newContext({ baseURL: baseUrl });
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'AI assistants that know your business' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.prerendered)).toBeUndefined();
    await context.close();
  });

  it('a signed-in owner opening / lands on the dashboard', async () => {
    const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'maya@demo.kesher.app', password: 'Demo-Kesher-2026!' }),
    });
    const session = (await login.json()) as { access_token: string; user: { uid: string } };
    const context = await browser.newContext({ baseURL: baseUrl });
    await context.addInitScript(
      ([token, uid]) => {
        localStorage.setItem('firebaseToken', token!);
        localStorage.setItem('currentUserUid', uid!);
      },
      [session.access_token, session.user.uid],
    );
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await context.close();
  });
});
