import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { CHROMIUM, launchChromium, seriousViolations } from './browser';

/**
 * The website widget end to end, in a real Chromium against the real embedded server (builtin answer
 * engine, no AI key): widget.js pasted into a third-party page on another origin draws its button,
 * opens /embed in a frame, answers from the owner's file, tells the page it is typing, keeps the
 * conversation across a reload, starts over; and the owner's Widget Preview.
 */
const baseUrl = inject('baseUrl');
const email = `widget-owner-${Date.now()}@example.com`;
const password = 'Kesher-Widget-2026!';
const assistantName = 'Lighthouse Bakery';
const englishFact = 'The Lighthouse Bakery sells lavender croissants every Thursday at nine in the morning.';
const hebrewFact = 'המאפייה שלנו אופה עוגות גבינה בכל יום שלישי בשעה שמונה בבוקר.';

let browser: Browser;
let visitor: BrowserContext;
let visitorProfile: string;
let page: Page;
let token: string;
let assistantId: number;
let shareToken: string;
let host: Server;
let hostUrl: string;

const api = apiClient(baseUrl, () => token);
const apiCall = api.call;
const upload = (name: string, content: string) => api.upload(assistantId, name, content);

async function audit(target: Page | Frame, label: string) {
  const found = await seriousViolations(target as Page);
  const described = found.map(
    (v) => `${v.id} (${v.impact}): ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(described, `axe on ${label}`).toEqual([]);
}

/** A customer's page on another origin (127.0.0.1 vs Kesher's localhost), hostile CSS included. */
function hostPage() {
  const kesher = new URL(baseUrl);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Lighthouse Bakery — home</title>
  <style>button { background: red !important; width: 10px !important; } iframe { display: none !important; } * { font-size: 40px; }</style>
</head>
<body>
  <h1>Welcome to the Lighthouse Bakery</h1>
  <p>Fresh bread every day.</p>
  <script src="${kesher.origin}/widget.js" data-share-token="${shareToken}" data-button-position="bottom-left" data-button-size="70px" data-button-color="#7c3aed" data-avatar-url="${kesher.origin}/icons/icon-192.png" async></script>
</body>
</html>`;
}

/** The chat frame inside the widget (Playwright's CSS pierces the open shadow root). */
const chatFrame = (): FrameLocator => page.frameLocator('kesher-widget iframe');
const embedFrame = () => page.frames().find((f) => f.url().includes('/embed/'))!;
const widgetButton = () => page.getByRole('button', { name: /^(Open|Minimize) chat$/ });

beforeAll(async () => {
  // Setup through the API: an owner, an assistant with an English and a Hebrew file, a share token.
  token = (
    await apiCall<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
  ).access_token;
  assistantId = (
    await apiCall<{ assistant_id: number }>('/assistants/', {
      method: 'POST',
      body: JSON.stringify({
        name: assistantName,
        description: 'Answers about our bakery by the sea.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await upload('bakery.txt', `${englishFact}\nWe also sell coffee.\n`);
  await upload('bakery-he.txt', `${hebrewFact}\nיש לנו גם קפה.\n`);
  shareToken = (
    await apiCall<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;

  host = createServer((request, response) => {
    if (request.url === '/' || request.url?.startsWith('/?')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(hostPage());
    } else if (request.url === '/no-frames') {
      // A site that refuses to be shown inside other pages, as many do.
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY' });
      response.end('<!doctype html><title>Private</title><h1>Not in frames</h1>');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;

  browser = await launchChromium();
  // The visitor's Chromium keeps third-party cookies and storage allowed, as Chrome does by default.
  // (Debian's Chromium blocks them by default; the embed frame then has no localStorage at all — see
  // the storage bridge in widget/options.ts; widget-blocked-storage.e2e.test.ts runs the widget so.)
  visitorProfile = mkdtempSync(join(tmpdir(), 'kesher-widget-visitor-'));
  mkdirSync(join(visitorProfile, 'Default'), { recursive: true });
  writeFileSync(
    join(visitorProfile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { cookie_controls_mode: 0 } }),
  );
  visitor = await chromium.launchPersistentContext(visitorProfile, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
    viewport: { width: 1280, height: 900 },
  });
  // Every frame: English texts, and a record of the messages each window receives.
  await visitor.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
    const w = window as unknown as { __messages: { origin: string; data: unknown }[] };
    w.__messages = [];
    window.addEventListener('message', (event) => w.__messages.push({ origin: event.origin, data: event.data }));
  });
  page = visitor.pages()[0] ?? (await visitor.newPage());
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await visitor?.close();
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
  if (visitorProfile) rmSync(visitorProfile, { recursive: true, force: true });
});

describe('widget.js on a third-party website', () => {
  it('has both knowledge files ingested', async () => {
    await expect
      .poll(
        async () =>
          (await apiCall<{ status: string }[]>(`/assistants/${assistantId}/files`)).map((f) => f.status).join(','),
        { timeout: 30_000 },
      )
      .toBe('ready,ready');
  });

  it('serves widget.js to other origins and frames only /embed', async () => {
    const script = await fetch(`${baseUrl}/widget.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const embed = await fetch(`${baseUrl}/embed/${shareToken}`);
    expect(
      embed.headers
        .get('content-security-policy')
        ?.split(';')
        .map((d) => d.trim()),
    ).toContain('frame-ancestors *');
    expect(embed.headers.get('x-frame-options')).toBeNull();
  });

  it('draws its button on the page, isolated from the page CSS, where the snippet says', async () => {
    await page.goto(hostUrl);
    await page.getByRole('heading', { name: 'Welcome to the Lighthouse Bakery' }).waitFor();
    const button = widgetButton();
    await button.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    const box = (await button.boundingBox())!;
    expect(box.width).toBe(70); // the page's `button { width: 10px !important }` does not reach it
    expect(box.x).toBe(20); // bottom-left, 20 px in
    expect(Math.round(box.y + box.height)).toBe(900 - 20);
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(124, 58, 237)');
    await expect
      .poll(() => button.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(192);
    expect(await button.locator('img').getAttribute('src')).toBe(`${new URL(baseUrl).origin}/icons/icon-192.png`); // the avatar
    expect(await page.locator('kesher-widget iframe').count()).toBe(0); // nothing loads before the first open
  });

  it('opens the embed in a frame and answers from the file, animating the button while it types', async () => {
    await page.evaluate(() => {
      const button = document.querySelector('kesher-widget')!.shadowRoot!.querySelector('button')!;
      const w = window as unknown as { __typing: boolean[] };
      w.__typing = [];
      new MutationObserver(() => w.__typing.push(button.classList.contains('typing'))).observe(button, {
        attributes: true,
        attributeFilter: ['class'],
      });
    });
    await widgetButton().click();
    expect(await widgetButton().getAttribute('aria-expanded')).toBe('true');
    const frame = chatFrame();
    await frame.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    await frame.getByText(`Hi! I'm ${assistantName}`).waitFor();
    await frame.getByText('Answers about our bakery by the sea.').waitFor();
    await frame.getByText('Online').waitFor();
    expect(await page.locator('kesher-widget iframe').isVisible()).toBe(true); // the page's `iframe { display: none }` does not reach it

    const input = frame.getByLabel('Message');
    await input.fill('When do you sell lavender croissants?');
    await frame.getByText('6/100 words').waitFor();
    await frame.getByText('~10/400 tokens').waitFor();
    await input.press('Enter');
    await frame.locator('.embed-msg-user').getByText('When do you sell lavender croissants?').waitFor();
    await frame
      .locator('.embed-msg-assistant')
      .getByText(/lavender croissants every Thursday at nine in the morning/)
      .waitFor();
    await frame.getByText('Thinking...').waitFor({ state: 'detached' });
    // Where the answer came from, once, under it.
    const answered = frame.locator('.embed-msg-assistant').last();
    await answered.locator('.embed-sources').getByText('bakery.txt').waitFor();
    expect(await answered.getByText('bakery.txt').count()).toBe(1);

    // ASSISTANT_TYPING reached the page from Kesher's origin, and the button animated, then stopped.
    const messages = await page.evaluate(
      () => (window as unknown as { __messages: { origin: string; data: unknown }[] }).__messages,
    );
    const typing = messages.filter((m) => (m.data as { type?: string })?.type === 'ASSISTANT_TYPING');
    expect(typing.map((m) => m.origin)).toContain(new URL(baseUrl).origin);
    expect(typing.map((m) => m.data)).toEqual([
      { type: 'ASSISTANT_TYPING', isTyping: true },
      { type: 'ASSISTANT_TYPING', isTyping: false },
    ]);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __typing: boolean[] }).__typing))
      .toEqual([true, false]);

    await audit(embedFrame(), '/embed inside the widget');
  });

  it('keeps the conversation in the frame storage, per assistant, for 7 days', async () => {
    const stored = await embedFrame().evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? 'null'),
      `kesher_embed_conversation_${assistantId}`,
    );
    expect(Object.keys(stored).sort()).toEqual([
      'deviceFingerprint',
      'domain',
      'expiresAt',
      'messages',
      'sessionToken',
      'shareToken',
      'threadId',
      'timestamp',
      'version',
    ]);
    expect(stored.version).toBe('1.0');
    expect(stored.shareToken).toBe(shareToken);
    expect(stored.domain).toBe('127.0.0.1');
    expect(stored.sessionToken.token).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.expiresAt - stored.timestamp).toBe(7 * 24 * 60 * 60 * 1000);
    expect(stored.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('closes with Escape from inside the chat and gives focus back to the button', async () => {
    await chatFrame().getByLabel('Message').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => widgetButton().getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('kesher-widget iframe').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.querySelector('kesher-widget')!.shadowRoot!.activeElement?.tagName)).toBe(
      'BUTTON',
    );
  });

  it('restores the conversation after the page reloads', async () => {
    await page.reload();
    await widgetButton().click();
    const frame = chatFrame();
    await frame.getByText('Chat history restored').waitFor();
    await frame.locator('.embed-msg-user').getByText('When do you sell lavender croissants?').waitFor();
    await frame
      .locator('.embed-msg-assistant')
      .getByText(/lavender croissants every Thursday/)
      .waitFor();
  });

  it('starts a new conversation, and answers a Hebrew question in Hebrew', async () => {
    const frame = chatFrame();
    const before = await embedFrame().evaluate(
      (key) => JSON.parse(localStorage.getItem(key)!).threadId,
      `kesher_embed_conversation_${assistantId}`,
    );
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByText('Chat history restored').waitFor({ state: 'detached' });
    expect(await frame.locator('.embed-msg').count()).toBe(0);
    await expect
      .poll(() =>
        embedFrame().evaluate(
          (key) => JSON.parse(localStorage.getItem(key)!).threadId,
          `kesher_embed_conversation_${assistantId}`,
        ),
      )
      .not.toBe(before);

    const input = frame.getByLabel('Message');
    await input.fill('מתי אתם אופים עוגות גבינה?');
    await frame.getByRole('button', { name: 'Send' }).click();
    const answer = frame.locator('.embed-msg-assistant').last();
    await answer.getByText(/עוגות גבינה בכל יום שלישי/).waitFor();
    expect(await answer.locator('.embed-bubble').getAttribute('dir')).toBe('auto');
    await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
    await answer.getByText('Thank you for your feedback!').waitFor();
  });

  it('clears the conversation after the confirmation', async () => {
    const frame = chatFrame();
    await frame.getByRole('button', { name: 'Clear conversation' }).click();
    const dialog = frame.getByRole('alertdialog', { name: 'Clear conversation' });
    await dialog.getByText('Are you sure you want to clear this conversation? This action cannot be undone.').waitFor();
    await audit(embedFrame(), '/embed clear confirmation');
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => frame.locator('.embed-msg').count()).toBe(0);
    await page.reload();
    await widgetButton().click();
    await chatFrame().getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    expect(await chatFrame().locator('.embed-msg').count()).toBe(0);
    expect(await chatFrame().getByText('Chat history restored').count()).toBe(0);
  });

  it('moves when dragged and stays there after a reload', async () => {
    await page.keyboard.press('Escape');
    // Where the button is placed (its hover scale does not count).
    const placed = () =>
      widgetButton().evaluate((el) => ({
        x: parseFloat((el as HTMLElement).style.left),
        y: parseFloat((el as HTMLElement).style.top),
      }));
    const start = await placed();
    await page.mouse.move(start.x + 35, start.y + 35);
    await page.mouse.down();
    await page.mouse.move(start.x + 235, start.y - 165, { steps: 5 });
    await page.mouse.up();
    expect(await placed()).toEqual({ x: start.x + 200, y: start.y - 200 });
    expect(await widgetButton().getAttribute('aria-expanded')).toBe('false'); // a drag is not a click
    await page.reload();
    expect(await placed()).toEqual({ x: start.x + 200, y: start.y - 200 });
  });

  it('shows the embed page on its own: Hebrew by default, right to left, and accessible', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 700 } });
    const tab = await context.newPage();
    await tab.goto(`/embed/${shareToken}`);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    expect(await tab.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await tab.getByText(`היי! אני ${assistantName}`).waitFor();
    await tab.getByText('0/100 מילים').waitFor();
    await audit(tab, '/embed (he)');
    await tab.goto('/embed/no-such-token');
    await tab.getByText('העוזר לא נמצא.').waitFor();
    await audit(tab, '/embed not found');
    await context.close();
  });
});

describe('the owner previews the widget', () => {
  let owner: BrowserContext;
  let tab: Page;

  beforeAll(async () => {
    owner = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl });
    await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await owner.addInitScript(() => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
    });
    tab = await owner.newPage();
    tab.setDefaultTimeout(20_000);
  });

  afterAll(async () => {
    await owner?.close();
  });

  it('opens Widget Preview from the dashboard card', async () => {
    await tab.goto('/login');
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill(password);
    await tab.getByRole('button', { name: 'Sign In', exact: true }).click();
    await tab.waitForURL('**/dashboard');
    await tab.getByRole('link', { name: 'Preview widget' }).click();
    await tab.waitForURL(`**/widget-preview/${assistantId}`);
    await tab.getByRole('heading', { name: 'Widget Preview', level: 1 }).waitFor();
    await tab.getByText('No Website URL Configured').waitFor();
    await audit(tab, '/widget-preview');
  });

  it('shows and copies the embed code with the assistant share token', async () => {
    await tab.getByRole('button', { name: 'Show Embed Code' }).click();
    const code = tab.getByLabel(`Embed code for ${assistantName}`);
    const text = (await code.textContent())!;
    expect(text).toContain(`src="${baseUrl}/widget.js"`);
    expect(text).toContain(`data-share-token="${shareToken}"`); // the existing token: the old link keeps working
    await tab.getByRole('button', { name: 'Copy Code' }).click();
    await tab.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await tab.getByRole('button', { name: 'Copy Code' }).waitFor(); // back after 2 s
    await audit(tab, '/widget-preview with the embed code');
    await tab.getByRole('button', { name: 'Hide Embed Code' }).click();
  });

  it('previews on a phone, asks before a real conversation, then chats in the small panel', async () => {
    await tab.getByRole('radio', { name: 'Mobile' }).check();
    const frame = tab.getByTestId('preview-frame');
    await expect.poll(async () => (await frame.boundingBox())?.width).toBe(375);
    expect((await frame.boundingBox())!.height).toBe(667);

    const button = tab.getByRole('button', { name: 'Open chat preview' });
    await button.click();
    const dialog = tab.getByRole('dialog', { name: 'Test Real AI Assistant' });
    await dialog.getByText(/real conversation thread and AI credits/).waitFor();
    await audit(tab, 'Test Real AI Assistant confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await tab.locator('iframe').count()).toBe(0);

    await button.click();
    await tab
      .getByRole('dialog', { name: 'Test Real AI Assistant' })
      .getByRole('button', { name: 'Continue to Chat' })
      .click();
    const chat = tab.frameLocator(`iframe[title="Chat with ${assistantName}"]`);
    await chat.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    await chat.getByLabel('Message').fill('When do you sell lavender croissants?');
    await chat.getByLabel('Message').press('Enter');
    await chat
      .locator('.embed-msg-assistant')
      .getByText(/lavender croissants every Thursday/)
      .waitFor();
    // The small panel holds the whole chat: the frame's page never scrolls, its header and input stay in view.
    const panel = tab.frames().find((f) => f.url().includes('/embed/'))!;
    const layout = await panel.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
      return {
        scroll: document.scrollingElement!.scrollHeight,
        height: window.innerHeight,
        head: box('.embed-head').top,
        input: box('.embed-input').bottom,
      };
    });
    expect(layout.scroll).toBeLessThanOrEqual(layout.height);
    expect(layout.head).toBeGreaterThanOrEqual(0);
    expect(layout.input).toBeLessThanOrEqual(layout.height + 0.5);
    expect(await tab.getByRole('button', { name: 'Minimize chat preview' }).getAttribute('aria-expanded')).toBe('true');
    await tab.getByRole('button', { name: 'Close chat preview' }).click(); // the phone panel covers the button, as on a real phone
    expect(await tab.locator('iframe').count()).toBe(0);
  });

  it('says "Failed to load website" for a site that refuses frames, and shows one that allows them', async () => {
    const setSite = (url: string) =>
      apiCall(`/assistants/${assistantId}`, { method: 'PUT', body: JSON.stringify({ website_url: url }) });
    await setSite(`${hostUrl}no-frames`);
    await tab.goto(`/widget-preview/${assistantId}`);
    await tab.getByText('Failed to load website').waitFor(); // the refused frame still fired `load`
    await tab.getByText(`${hostUrl}no-frames did not load in the preview`, { exact: false }).waitFor();
    expect(await tab.locator('iframe.wp-site').count()).toBe(0); // the example page instead
    await audit(tab, '/widget-preview, website refused');

    await setSite(hostUrl);
    await tab.goto(`/widget-preview/${assistantId}`);
    const site = tab.locator('iframe.wp-site');
    // (The last-seen assistant may paint first, with the old address; the refreshed one follows.)
    await expect.poll(() => site.getAttribute('src'), { timeout: 15_000 }).toBe(hostUrl);
    await expect.poll(() => tab.locator('object[data-frame-probe]').count(), { timeout: 15_000 }).toBe(0); // the probe has its answer
    expect(await tab.getByText('Failed to load website').count()).toBe(0);
    await setSite('');
  });
});
