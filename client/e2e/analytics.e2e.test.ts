import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { launchChromium, seriousViolations } from './browser';

/**
 * /analytics in a real Chromium, in Hebrew on a 390 px phone, over real events: an owner, an assistant with
 * a file, two questions answered by the builtin engine, one like and one dislike — all through the API.
 * The page must show the counts the read models made of those events.
 */
const baseUrl = inject('baseUrl');
const email = `analytics-owner-${Date.now()}@example.com`;
const password = 'Kesher-Analytics-2026!';
const fact = 'The Harbor Cafe ships fresh scones on Tuesday mornings; shipping is free above fifty shekels.';

let browser: Browser;
let page: Page;
let token: string;

const api = apiClient(baseUrl, () => token);

interface Run {
  id: string;
  status: string;
  message_id: string | null;
}

/** One question and its answer (waited for by polling the run's state), then the rating of that answer. */
async function askAndRate(assistantId: number, externalId: string, question: string, rating: 'like' | 'dislike') {
  const thread = await api.call<{ thread_id: string }>('/threads/', {
    method: 'POST',
    body: JSON.stringify({ assistant_id: assistantId }),
  });
  await api.call(`/threads/${thread.thread_id}/messages`, {
    method: 'POST',
    body: JSON.stringify({ content: question }),
  });
  const run = await api.call<Run>(`/threads/${thread.thread_id}/runs`, {
    method: 'POST',
    body: JSON.stringify({ assistant_id: externalId }),
  });
  let done: Run = run;
  await expect
    .poll(async () => (done = await api.call<Run>(`/threads/${thread.thread_id}/runs/${run.id}`)).status, {
      timeout: 30_000,
    })
    .toBe('completed');
  await api.call('/feedback', {
    method: 'POST',
    body: JSON.stringify({
      assistant_id: assistantId,
      thread_id: thread.thread_id,
      message_id: done.message_id,
      rating,
    }),
  });
}

let topKeyword: { keyword: string; count: number } | null = null;
let assistant: { assistant_id: number; openai_assistant_id: string };

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    baseURL: baseUrl,
    isMobile: true,
    hasTouch: true,
  });
  await context.addInitScript(() => localStorage.setItem('language', 'he'));
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await browser?.close();
});

describe('/analytics in Hebrew on a phone', () => {
  it('seeds real events through the API: two answered questions, a like and a dislike', async () => {
    token = (
      await api.call<{ access_token: string }>('/auth/register', {
        method: 'POST',
        body: JSON.stringify({ email, password }),
      })
    ).access_token;
    assistant = await api.call<{ assistant_id: number; openai_assistant_id: string }>('/assistants/', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Harbor Cafe helper',
        description: 'Answers about our cafe.',
        instructions: 'Answer from the files only.',
      }),
    });
    await api.upload(assistant.assistant_id, 'cafe.txt', `${fact}\n`);
    await expect
      .poll(
        async () =>
          (await api.call<{ status: string }[]>(`/assistants/${assistant.assistant_id}/files`))
            .map((f) => f.status)
            .join(),
        { timeout: 30_000 },
      )
      .toBe('ready');
    await askAndRate(assistant.assistant_id, assistant.openai_assistant_id, 'When do you ship scones?', 'like');
    await askAndRate(assistant.assistant_id, assistant.openai_assistant_id, 'Is shipping free?', 'dislike');
    // The figures are projections of the events: wait until the read models have them (no sleeping).
    await expect
      .poll(
        async () => {
          const { data } = await api.call<{
            data: { overview: { total_queries: number }; feedback: { total: number } };
          }>('/analytics/dashboard?days=7');
          return `${data.overview.total_queries}/${data.feedback.total}`;
        },
        { timeout: 30_000 },
      )
      .toBe('2/2');
    // Both questions say "ship…": it is the customers' top keyword (stemmed), once the keyword read model has them.
    await expect
      .poll(
        async () => {
          const { data } = await api.call<{ data: { keywords: { keyword: string; count: number }[] } }>(
            '/keyword-analytics/customer-keywords?days=7&limit=5',
          );
          topKeyword = data.keywords[0] ?? null;
          return topKeyword?.count ?? 0;
        },
        { timeout: 30_000 },
      )
      .toBe(2);
    expect(topKeyword!.keyword).toMatch(/^ship/);
  }, 150_000);

  it('signs in and shows the counts of the real conversations', async () => {
    await page.goto('/login?redirect=/analytics');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/analytics');
    await page.getByRole('heading', { name: 'אנליטיקה', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.getByRole('combobox', { name: 'טווח זמן' }).inputValue()).toBe('7');

    const figure = (key: string) => page.locator(`[data-figure="${key}"] dd`);
    await expect.poll(() => figure('queries').textContent()).toBe('2');
    expect(await figure('conversations').textContent()).toBe('2');
    expect(await figure('users').textContent()).toBe('1');
    // One like, one dislike: 50 % is "fair".
    await page.getByText('50% שביעות רצון').waitFor();
    await page.getByText('חיובי: 1').waitFor();
    await page.getByText('שלילי: 1').waitFor();
    // The gauge has the average of two real answers; the queries chart has today's point.
    await page.getByRole('img', { name: /^זמן תגובה ממוצע \d[\d,]* מ״ש מתוך 5,000 מ״ש/ }).waitFor();
    await page.getByRole('group', { name: 'שאילתות יומיות' }).waitFor();
    // Keywords of the customers' questions.
    const customerKeywords = page.getByRole('list', { name: 'מילות המפתח המובילות של הלקוחות' });
    await customerKeywords.getByText(topKeyword!.keyword, { exact: true }).waitFor();
    await customerKeywords.getByText('שני אזכורים').first().waitFor();
    // Usage card: two queries this month of the free plan's 100 (its own limit, not the spec's 20,000).
    await page.getByText('2 מתוך 100', { exact: true }).first().waitFor();
    expect(await page.getByText('מתוך 20,000').count()).toBe(0);
    // No referrals without sales mode.
    await page.getByText('אין עדיין כתובות שהופנו אליהן').waitFor();
  });

  it('fits the phone: nothing wider than the screen, and no serious accessibility problems', async () => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const found = await seriousViolations(page);
    expect(found.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  it('asks again for 30 days and on Refresh', async () => {
    const waitDays30 = page.waitForRequest((r) => r.url().includes('/analytics/dashboard?days=30'));
    await page.getByRole('combobox', { name: 'טווח זמן' }).selectOption('30');
    await waitDays30;
    await expect.poll(() => page.locator('[data-figure="queries"] dd').textContent()).toBe('2');
    const refreshed = page.waitForRequest((r) => r.url().includes('/limits/analytics'));
    await page.getByRole('button', { name: 'רענון', exact: true }).click();
    await refreshed;
  });
});
