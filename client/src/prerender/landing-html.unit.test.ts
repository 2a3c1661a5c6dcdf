import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootScript, inlineStylesheets, takeAppTags, withoutImagePreloads } from './landing-html';

const SHELL = `<head><title>Kesher</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-1.js">
    <link rel="modulepreload" crossorigin href="/assets/i18n-2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-3.css">
  </head>`;
const APP = { entry: '/assets/index-abc.js', preloads: ['/assets/runtime-1.js', '/assets/i18n-2.js'] };
const BOOT = '<div class="boot">Kesher</div>';
const PAGE = '<h1>שלום</h1>';

/** Runs the inline script the way the browser would, on a page showing the prerendered markup. */
function runBoot() {
  document.body.innerHTML = `<div id="root">${PAGE}</div>`;
  const body = /<script>([\s\S]*)<\/script>/.exec(bootScript(BOOT, APP))![1]!;
  new Function(body)();
}

const appScripts = () => [...document.head.querySelectorAll('script[type="module"]')].map((s) => s.getAttribute('src'));
const preloads = () =>
  [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'));
// A previous test's boot may still have an animation frame or idle callback pending: let them run before
// the next test's head is read (its start() is then a no-op; there is no state to wait on).
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

afterEach(async () => {
  await settle();
  document.head.innerHTML = '';
  delete document.documentElement.dataset.prerendered;
});

describe('the prerendered landing page HTML', () => {
  it('takes the app tags out of the shell and keeps their URLs', () => {
    const { html, app } = takeAppTags(SHELL);
    expect(app).toEqual(APP);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="stylesheet"');
  });

  it('inlines the stylesheet as it is', () => {
    const css = '.a::after{content:"$&"}';
    const html = inlineStylesheets(SHELL, (href) => (href === '/assets/index-3.css' ? `${css}\n` : ''));
    expect(html).toContain(`<style>${css}</style>`);
    expect(html).not.toContain('rel="stylesheet"');
  });

  it('drops the image preload React puts before the markup', () => {
    expect(
      withoutImagePreloads('<link rel="preload" as="image" href="/icons/icon-192.png"/><a href="#main">x</a>'),
    ).toBe('<a href="#main">x</a>');
  });
});

describe('the boot script', () => {
  it('asks for the app only once the page has loaded and painted, and only once', async () => {
    runBoot();
    expect(document.documentElement.dataset.prerendered).toBe('1');
    expect(document.getElementById('root')!.innerHTML).toBe(PAGE);
    expect(appScripts()).toEqual([]);
    // Loaded, painted (two animation frames in jsdom), idle: then the app's script is asked for.
    await vi.waitFor(() => expect(appScripts()).toEqual([APP.entry]));
    expect(preloads()).toEqual(APP.preloads);
    window.dispatchEvent(new Event('pointerdown'));
    expect(appScripts()).toHaveLength(1);
  });

  it('starts the app at once when the visitor reaches for the page first', () => {
    runBoot();
    window.dispatchEvent(new Event('keydown'));
    expect(appScripts()).toEqual([APP.entry]);
  });

  it('gives a signed-in owner or an English reader the boot screen and the app at once', () => {
    for (const setup of [
      () => localStorage.setItem('firebaseToken', 'a-long-token'),
      () => localStorage.setItem('language', 'en'),
    ]) {
      localStorage.clear();
      document.head.innerHTML = '';
      setup();
      runBoot();
      expect(document.documentElement.dataset.prerendered).toBeUndefined();
      expect(document.getElementById('root')!.innerHTML).toBe(BOOT);
      expect(appScripts()).toEqual([APP.entry]);
    }
  });
});
