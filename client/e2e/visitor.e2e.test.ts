import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he as chatHe } from '../src/features/chat/locales/he';
import { he as embedHe } from '../src/features/embed/locales/he';
import { serverText } from '../src/lib/server-texts';
import { apiClient } from './api';
import { launchChromium } from './browser';

/**
 * What a first-time visitor meets on a phone (390×844, Hebrew, the default): the embed page keeps its
 * header and input in view while only the conversation scrolls, /embed/ without a token says so, and a
 * refusal from the server reads in Hebrew. Real Chromium, real embedded server, builtin answer engine.
 */
const baseUrl = inject('baseUrl');
const email = `visitor-owner-${Date.now()}@example.com`;
const password = 'Kesher-Visitor-2026!';
const assistantName = 'Olive Grove guide';
const PHONE = { width: 390, height: 844 };
// Long sentences, so that every answer (up to three quoted sentences) is several lines on a phone.
const facts = [
  'מטע הזיתים שלנו פתוח למבקרים בכל יום ראשון ושני משמונה בבוקר ועד ארבע אחר הצהריים, וכל סיור כולל טעימה של שמן זית כתית מעולה מהבציר האחרון ולחם טרי מהטאבון.',
  'מטע הזיתים שלנו מציע סדנת כבישת זיתים למשפחות בכל יום שלישי בעשר בבוקר, והמשתתפים לוקחים הביתה צנצנת זיתים כבושים שהכינו בעצמם עם לימון, שום ופלפל חריף.',
  'מטע הזיתים שלנו שולח בקבוקי שמן זית לכל הארץ תוך שלושה ימי עסקים, והמשלוח חינם בהזמנה מעל מאתיים שקלים או באיסוף עצמי מהחנות שליד בית הבד הישן.',
];
const questions = [
  'מתי מטע הזיתים פתוח למבקרים?',
  'מתי יש סדנת כבישת זיתים?',
  'איך שולחים בקבוקי שמן זית?',
  'מה כולל הסיור במטע הזיתים?',
];

let browser: Browser;
let token: string;
let assistantId: number;
let shareToken: string;
const api = apiClient(baseUrl, () => token);

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
        name: assistantName,
        description: 'עונה על שאלות על מטע הזיתים.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await api.upload(assistantId, 'olives.txt', `${facts.join('\n')}\n`);
  shareToken = (
    await api.call<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function phone(): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: PHONE, isMobile: true, hasTouch: true });
  const tab = await context.newPage();
  tab.setDefaultTimeout(20_000);
  return { context, tab };
}

/** The element's box lies inside the window (what the visitor sees without scrolling the page). */
async function inView(locator: Locator, label: string) {
  const box = (await locator.boundingBox())!;
  expect(box, label).not.toBeNull();
  expect(box.y, `${label} top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${label} bottom`).toBeLessThanOrEqual(PHONE.height + 0.5);
  return box;
}

describe('the embed chat on a phone', () => {
  it('has the knowledge file ingested', async () => {
    await expect
      .poll(
        async () =>
          (await api.call<{ status: string }[]>(`/assistants/${assistantId}/files`)).map((f) => f.status).join(','),
        { timeout: 30_000 },
      )
      .toBe('ready');
  });

  it('keeps the header and the input in view after many questions; only the messages scroll, the newest in view', async () => {
    const { context, tab } = await phone();
    await tab.goto(`/embed/${shareToken}`);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    expect(await tab.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const input = tab.getByLabel(embedHe.messageLabel);
    for (const question of questions) {
      await input.fill(question);
      await input.press('Enter');
      await tab.locator('.embed-msg-user').getByText(question).waitFor();
      await tab.getByText(embedHe.thinking).waitFor({ state: 'detached' });
    }
    await expect.poll(() => tab.locator('.embed-msg-assistant').count()).toBe(questions.length);

    // The conversation is taller than the phone: it scrolls inside the log, never the page.
    const log = tab.locator('.embed-log');
    const sizes = await log.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    const page = await tab.evaluate(() => ({
      scroll: document.scrollingElement!.scrollHeight,
      client: window.innerHeight,
    }));
    expect(page.scroll).toBeLessThanOrEqual(page.client);

    const header = await inView(tab.locator('.embed-head'), 'header');
    const box = await inView(input, 'input');
    await inView(tab.getByRole('button', { name: embedHe.send }), 'send button');
    // The newest answer is on screen, between the header and the input.
    const last = (await tab.locator('.embed-msg-assistant').last().boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual(box.y + 0.5);
    expect(last.y + last.height).toBeGreaterThan(header.y + header.height);
    await context.close();
  });
});

describe('the public chat on a phone', () => {
  it('keeps the header and the input in view too, with the newest answer on screen', async () => {
    const { context, tab } = await phone();
    await tab.goto(`/shared-chat/${shareToken}`);
    await tab.waitForURL(/\/public-chat\/\d+/);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    const input = tab.getByLabel(chatHe.messageLabel);
    for (const question of questions.slice(0, 3)) {
      await input.fill(question);
      // Send is enabled once the previous answer has fully settled.
      await expect.poll(() => tab.getByRole('button', { name: chatHe.send }).isEnabled()).toBe(true);
      await input.press('Enter');
      await tab.locator('.chat-msg-user').getByText(question).waitFor();
      // The answer is a whole chat turn away (on a busy machine more than the poll's default second).
      await expect
        .poll(() => tab.locator('.chat-msg-assistant').count(), { timeout: 15_000 })
        .toBe(questions.indexOf(question) + 1);
    }
    const log = await tab.locator('.chat-log').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(log.scroll).toBeGreaterThan(log.client);
    expect(await tab.evaluate(() => document.scrollingElement!.scrollHeight)).toBeLessThanOrEqual(PHONE.height);
    const header = await inView(tab.locator('.chat-page-head'), 'header');
    const box = await inView(input, 'input');
    await expect
      .poll(async () => {
        const last = (await tab.locator('.chat-msg-assistant').last().boundingBox())!;
        return last.y + last.height <= box.y + 0.5 && last.y + last.height > header.y + header.height;
      })
      .toBe(true);
    await context.close();
  });
});

describe('what a visitor reads when something is wrong', () => {
  it('/embed/ without a token says that no share token is in the address', async () => {
    const { context, tab } = await phone();
    await tab.goto('/embed/');
    await tab.getByText(embedHe.noShareToken).waitFor();
    expect(await tab.getByText('הדף לא נמצא.').count()).toBe(0);
    await context.close();
  });

  it('a stored conversation with a malformed thread id (400 THREAD_INVALID) gives way to a new one', async () => {
    const { context, tab } = await phone();
    const key = `kesher_embed_conversation_${assistantId}`;
    await tab.goto(`/embed/${shareToken}`);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    // The stored conversation now points at a thread id no server would issue.
    await tab.evaluate((k) => {
      const stored = JSON.parse(localStorage.getItem(k)!);
      localStorage.setItem(
        k,
        JSON.stringify({
          ...stored,
          threadId: 'thread_not*valid',
          messages: [{ id: 'm1', role: 'user', content: 'ישן', timestamp: Date.now() }],
        }),
      );
    }, key);
    const invalid = tab.waitForResponse((r) => r.url().includes('/threads/public/thread_not') && r.status() === 400);
    await tab.reload();
    expect(await (await invalid).json()).toMatchObject({ detail: 'THREAD_INVALID' });
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    await expect
      .poll(() => tab.evaluate((k) => JSON.parse(localStorage.getItem(k)!).threadId as string, key))
      .toMatch(/^thread_[A-Za-z0-9]+$/);
    expect(await tab.getByText('ישן').count()).toBe(0);
    expect(await tab.getByText(embedHe.initFailedTitle).count()).toBe(0);
    await context.close();
  });

  it('a refused message (rate limit or quota) reads in Hebrew', async () => {
    // The visitor's own session token in the address (spec: ?sessionToken=): the page and this loop are one visitor.
    const sessionToken = 'e2e0visitor0session0token0'.padEnd(64, '0');
    const { context, tab } = await phone();
    await tab.goto(`/embed/${shareToken}?sessionToken=${sessionToken}`);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    const key = `kesher_embed_conversation_${assistantId}`;
    const storedThread = () =>
      tab.evaluate(
        (k) => (JSON.parse(localStorage.getItem(k) ?? 'null') as { threadId?: string } | null)?.threadId ?? null,
        key,
      );
    await expect.poll(storedThread).not.toBeNull();
    const threadId = (await storedThread())!;
    // Post as this visitor until the server refuses (its per-visitor rate limit, else the plan's monthly quota).
    let refusal: { status: number; detail: string } | null = null;
    for (let i = 0; i < 150 && !refusal; i++) {
      const response = await fetch(`${baseUrl}/api/v1/threads/public/${threadId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: `שאלה מספר ${i}`, session_token: sessionToken }),
      });
      if (!response.ok)
        refusal = { status: response.status, detail: ((await response.json()) as { detail: string }).detail };
    }
    expect(refusal, 'the server refuses a flood of messages').not.toBeNull();
    const input = tab.getByLabel(embedHe.messageLabel);
    await input.fill('עוד שאלה אחת');
    await input.press('Enter');
    const alert = tab.locator('.embed-alert');
    await alert.waitFor();
    const shown = (await alert.locator('span').textContent())!;
    expect(shown).toBe(serverText(refusal!.detail, 'he'));
    expect(shown).toMatch(/[\u0590-\u05FF]/u);
    expect(shown).not.toBe(refusal!.detail);
    await context.close();
  });
});
