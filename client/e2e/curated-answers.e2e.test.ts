import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he as chatHe } from '../src/features/chat/locales/he';
import { he as qaHe } from '../src/features/curated-answers/locales/he';
import { apiClient } from './api';
import { launchChromium } from './browser';

/**
 * Issue 26 on a phone in Hebrew: a visitor's question the assistant cannot answer, the owner opening that
 * conversation and improving the answer, and the next visitor — asking in other words — getting it.
 * Real Chromium, real embedded server, the built-in answer engine.
 */
const baseUrl = inject('baseUrl');
const email = `curated-owner-${Date.now()}@example.com`;
const password = 'Kesher-Curated-2026!';
const assistantName = 'מספרת הדקל';
const correction = 'תספורת גברים עולה 80 ₪, כולל חפיפה.';
const PHONE = { width: 390, height: 844 };

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
        description: 'עונה על שאלות על המספרה.',
        instructions: 'Answer briefly.',
      }),
    })
  ).assistant_id;
  shareToken = (
    await api.call<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function phone(init?: (bearer: string) => void): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: PHONE, isMobile: true, hasTouch: true });
  if (init) await context.addInitScript(init, token);
  const tab = await context.newPage();
  tab.setDefaultTimeout(30_000);
  return { context, tab };
}

/** A new visitor asks one question through the share link; the answer's bubble. */
async function visitorAsks(question: string) {
  const { context, tab } = await phone();
  await tab.goto(`/shared-chat/${shareToken}`);
  await tab.waitForURL(/\/public-chat\/\d+/);
  await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
  const input = tab.getByLabel(chatHe.messageLabel);
  await input.fill(question);
  await expect.poll(() => tab.getByRole('button', { name: chatHe.send }).isEnabled()).toBe(true);
  await input.press('Enter');
  await expect.poll(() => tab.locator('.chat-msg-assistant').count(), { timeout: 20_000 }).toBe(1);
  const answer = tab.locator('.chat-msg-assistant').last();
  await expect.poll(async () => (await answer.innerText()).trim().length, { timeout: 20_000 }).toBeGreaterThan(0);
  return { context, answer };
}

describe('curated answers on a phone in Hebrew', () => {
  it('the owner improves a visitor’s answer, and a new visitor asking in other words gets it', async () => {
    const first = await visitorAsks('כמה עולה תספורת?');
    // The built-in engine has nothing to answer it from, and says so.
    await expect.poll(() => first.answer.innerText(), { timeout: 20_000 }).toContain('לא מצאתי תשובה');
    await first.context.close();

    const threads = await api.call<{ id: string; is_public: boolean }[]>(`/assistants/${assistantId}/threads`);
    const visitorThread = threads.find((thread) => thread.is_public)!;
    const owner = await phone((bearer) => {
      localStorage.setItem('language', 'he');
      localStorage.setItem('firebaseToken', bearer);
    });
    await owner.tab.goto(`/chat/${assistantId}/${visitorThread.id}`);
    const bubble = owner.tab.locator('.chat-msg-assistant').last();
    await bubble.getByRole('button', { name: qaHe.improve }).click();
    await expect.poll(() => bubble.getByLabel(qaHe.question).inputValue()).toBe('כמה עולה תספורת?');
    await bubble.getByLabel(qaHe.rightAnswer).fill(correction);
    await bubble.getByRole('button', { name: qaHe.save }).click();
    await owner.tab.getByText(qaHe.added).waitFor();
    expect(await owner.tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await owner.context.close();

    const next = await visitorAsks('מה המחיר של התספורת?');
    await expect.poll(() => next.answer.innerText()).toContain(correction);
    await expect.poll(() => next.answer.innerText()).toContain(chatHe.ownerAnswer);
    await next.context.close();
  });
});
