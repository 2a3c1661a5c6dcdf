import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { launchChromium, seriousViolations } from './browser';

/**
 * The chat in a real Chromium against the real embedded server and its builtin answer engine (grounded
 * in the uploaded files, no AI key): the owner's /chat with streaming, citations and feedback, Chat
 * History, and a visitor's Hebrew conversation through the share link that survives a reload.
 */
const baseUrl = inject('baseUrl');
const email = `chat-owner-${Date.now()}@example.com`;
const password = 'Kesher-Chat-2026!';
const assistantName = 'Harbor Cafe helper';
const englishFact = 'The Harbor Cafe bakes blueberry scones every Tuesday at five in the morning.';
const hebrewFact = 'המאפייה שלנו אופה חלות שוקולד בכל יום שישי בשעה שש בבוקר.';

let browser: Browser;
let owner: BrowserContext;
let page: Page;
let token: string;
let assistantId: number;
let shareToken: string;

const api = apiClient(baseUrl, () => token);
const apiCall = api.call;
const upload = (name: string, content: string) => api.upload(assistantId, name, content);

async function audit(target: Page, label: string) {
  const found = await seriousViolations(target);
  const described = found.map(
    (v) => `${v.id} (${v.impact}): ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(described, `axe on ${label}`).toEqual([]);
}

beforeAll(async () => {
  // Setup through the API: an owner, an assistant with two small files (English and Hebrew), a share link.
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
        description: 'Answers about our bakery by the harbor.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await upload('harbor.txt', `${englishFact}\nWe also sell coffee.\n`);
  await upload('hebrew.txt', `${hebrewFact}\nיש לנו גם קפה.\n`);
  shareToken = (
    await apiCall<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;

  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl });
  await owner.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
  });
  page = await owner.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await browser?.close();
});

describe('the owner chats with their assistant', () => {
  it('has both knowledge files ingested before asking', async () => {
    await expect
      .poll(
        async () =>
          (await apiCall<{ status: string }[]>(`/assistants/${assistantId}/files`)).map((f) => f.status).join(','),
        { timeout: 30_000 },
      )
      .toBe('ready,ready');
  });

  it('opens /chat from the dashboard card with the empty state and the counters', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('link', { name: 'Start chat' }).click();
    await page.waitForURL(`**/chat/${assistantId}`);
    await page.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    await page.getByText('Start a conversation').waitFor();
    await page.getByText('Assistant is ready').waitFor();
    await page.getByText('0/100 words').waitFor();
    await page.getByText('~0/400 tokens').waitFor();
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await audit(page, '/chat (empty)');
  });

  it('asks about the file, sees the grounded answer streamed, the citation and "Response ready!"', async () => {
    const requests: string[] = [];
    const streamHeaders: Record<string, string>[] = [];
    page.on('request', (request) => {
      requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
      if (request.url().includes('/stream')) streamHeaders.push(request.headers());
    });
    const input = page.getByLabel('Message');
    await input.fill('When do you bake blueberry scones?');
    await page.getByText('6/100 words').waitFor();
    await page.getByText('~9/400 tokens').waitFor();
    await input.press('Enter');

    // The question shows at once; the address gains the new thread.
    await page.locator('.chat-msg-user').getByText('When do you bake blueberry scones?').waitFor();
    await page.waitForURL(new RegExp(`/chat/${assistantId}/thread_[A-Za-z0-9]+$`));
    await page.getByText('Response ready!').waitFor();
    const answer = page.locator('.chat-msg-assistant').last();
    await answer.getByText(/blueberry scones every Tuesday at five in the morning/).waitFor();
    expect(await answer.locator('.chat-bubble').getAttribute('dir')).toBe('auto');
    await answer.locator('.chat-sources').getByText('harbor.txt').waitFor();
    expect(await answer.getByText('harbor.txt').count()).toBe(1); // the source once: the sources line, not the text too

    // The answer came over the SSE stream, so the run was never polled.
    expect(requests.some((r) => /^GET \/api\/v1\/threads\/thread_\w+\/runs\/run_\w+\/stream$/.test(r))).toBe(true);
    expect(requests.some((r) => /^GET \/api\/v1\/threads\/thread_\w+\/runs\/run_\w+$/.test(r))).toBe(false);
    // It was opened on the run's grant, not the bearer token: the server read neither session nor conversation first.
    expect(streamHeaders).toHaveLength(1);
    expect(streamHeaders[0]!['x-run-grant']).toMatch(/^[0-9a-z]+\.[\w-]{43}$/);
    expect(streamHeaders[0]!.authorization).toBeUndefined();
    await audit(page, '/chat (conversation)');
  });

  it('refuses an over-long message: counters turn red, Send is disabled and Enter alerts the rule', async () => {
    const input = page.getByLabel('Message');
    await input.fill(Array.from({ length: 101 }, (_, i) => `w${i}`).join(' '));
    await page.getByText('101/100 words').waitFor();
    expect(await page.getByText('101/100 words').getAttribute('class')).toContain('counter-over');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await input.press('Enter');
    await page
      .getByRole('alert')
      .getByText('Message exceeds word limit. Maximum 100 words allowed, but message contains 101 words.')
      .waitFor();
    await input.fill('');
  });

  it('likes the answer and sees the thanks for a moment', async () => {
    const answer = page.locator('.chat-msg-assistant').last();
    await answer.getByText('Was this answer helpful?').waitFor();
    await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
    await answer.getByText('Thank you for your feedback!').waitFor();
    expect(await answer.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expect.poll(() => answer.getByText('Was this answer helpful?').count()).toBe(0);
    await answer.getByText('Thank you for your feedback!').waitFor({ state: 'detached' });
  });
});

describe('a visitor chats in Hebrew through the share link', () => {
  it('opens /shared-chat/{token}, lands on /public-chat, asks in Hebrew and still sees the conversation after a reload', async () => {
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: baseUrl });
    const tab = await visitor.newPage();
    tab.setDefaultTimeout(20_000);
    await tab.goto(`/shared-chat/${shareToken}`);
    await tab.waitForURL(new RegExp(`/public-chat/${assistantId}$`));
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    expect(await tab.evaluate(() => document.documentElement.dir)).toBe('rtl'); // Hebrew is the default
    await tab.getByText('התחילו שיחה').waitFor();
    expect(await tab.getByRole('button', { name: 'שיחה חדשה' }).count()).toBe(0); // hidden on public chats

    const input = tab.getByLabel('הודעה');
    await input.fill('מתי אתם אופים חלות שוקולד?');
    await tab.getByText('5/100 מילים').waitFor();
    await tab.getByRole('button', { name: 'שליחה' }).click();
    await tab.waitForURL(new RegExp(`/public-chat/${assistantId}/thread_[A-Za-z0-9]+$`));
    await tab.getByText('התשובה מוכנה!').waitFor();
    const answer = tab.locator('.chat-msg-assistant').last();
    await answer.getByText(/אופה חלות שוקולד בכל יום שישי/).waitFor();
    await answer.locator('.chat-sources').getByText('hebrew.txt').waitFor();
    await audit(tab, '/public-chat (he)');

    // The session token was kept for this assistant, so the conversation reads back after a reload.
    expect(
      await tab.evaluate((id) => localStorage.getItem(`publicChatSession:${id}`)?.length ?? 0, assistantId),
    ).toBeGreaterThanOrEqual(16);
    await tab.reload();
    await tab.locator('.chat-msg-user').getByText('מתי אתם אופים חלות שוקולד?').waitFor();
    await tab
      .locator('.chat-msg-assistant')
      .getByText(/אופה חלות שוקולד בכל יום שישי/)
      .waitFor();
    expect(await tab.getByText('התחילו שיחה').count()).toBe(0);

    // A thread id the visitor cannot read starts a fresh conversation.
    await tab.goto(`/public-chat/${assistantId}/thread_000000000000000000000000`);
    await tab.waitForURL(new RegExp(`/public-chat/${assistantId}$`));
    await tab.getByText('התחילו שיחה').waitFor();
    await visitor.close();
  });

  it('an unknown share link says so', async () => {
    const visitor = await browser.newContext({ baseURL: baseUrl });
    const tab = await visitor.newPage();
    await tab.goto('/shared-chat/no-such-token-here');
    await tab.getByRole('alert').getByText('קישור השיתוף אינו תקין או שפג תוקפו.').waitFor();
    await visitor.close();
  });
});

describe('Chat History', () => {
  it('lists the owner thread and the visitor public thread; rename needs a title; resume, new chat and delete work', async () => {
    await page.getByRole('button', { name: 'Back to dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Chat history' }).click();
    const dialog = page.getByRole('dialog');
    // Each is titled by its first message until renamed (never "Untitled Conversation").
    await expect.poll(() => dialog.getByText('When do you bake blueberry scones?').count()).toBe(1);
    await expect.poll(() => dialog.getByText('מתי אתם אופים חלות שוקולד?').count()).toBe(1);
    expect(await dialog.getByText('Untitled Conversation').count()).toBe(0);
    await expect.poll(() => dialog.locator('.badge-public').count()).toBe(1);
    await audit(page, 'chat history modal');

    // The owner's conversation is the one without the Public badge.
    const ownerRow = dialog.locator('.thread-row', { hasNot: page.locator('.badge-public') });
    await ownerRow.getByRole('button', { name: 'Rename' }).click();
    const title = ownerRow.getByLabel('New title');
    await title.fill('   ');
    await ownerRow.getByRole('button', { name: 'Save' }).click();
    await ownerRow.getByText('Title cannot be empty').waitFor();
    await title.fill('Scones question');
    await ownerRow.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Scones question').waitFor();

    await dialog.locator('.thread-row', { hasText: 'Scones question' }).getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(new RegExp(`/chat/${assistantId}/thread_[A-Za-z0-9]+$`));
    await page.locator('.chat-msg-user').getByText('When do you bake blueberry scones?').waitFor();
    await page
      .locator('.chat-msg-assistant')
      .getByText(/blueberry scones every Tuesday/)
      .waitFor();
    // History is never "fresh": the feedback given before is remembered, its prompt stays hidden.
    expect(await page.getByText('Was this answer helpful?').count()).toBe(0);
    const resumed = page.url();

    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith(`/chat/${assistantId}/thread_`) && url.toString() !== resumed,
    );
    await page.getByText('Start a conversation').waitFor();

    await page.getByRole('button', { name: 'Back to dashboard' }).click();
    await page.getByRole('button', { name: 'Chat history' }).click();
    const rows = page.getByRole('dialog').locator('.thread-row');
    await expect.poll(() => rows.count()).toBe(3);
    const renamed = rows.filter({ hasText: 'Scones question' });
    await renamed.getByRole('button', { name: 'Delete' }).click();
    await renamed.getByText('Delete this conversation? This cannot be undone.').waitFor();
    await renamed.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByRole('dialog').getByText('Scones question').count()).toBe(0);
  });

  it("opens a visitor's conversation read-only, renames and deletes it", async () => {
    const dialog = page.getByRole('dialog');
    const visitorRow = () => dialog.locator('.thread-row', { has: page.locator('.badge-public') });
    await visitorRow().getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(new RegExp(`/chat/${assistantId}/thread_[A-Za-z0-9]+$`));
    await page.locator('.chat-msg-user').getByText('מתי אתם אופים חלות שוקולד?').waitFor();
    await page
      .locator('.chat-msg-assistant')
      .getByText(/אופה חלות שוקולד בכל יום שישי/)
      .waitFor();
    await page.getByRole('note').getByText("This is a visitor's conversation").waitFor();
    expect(await page.getByLabel('Message').count()).toBe(0);
    await audit(page, "/chat (a visitor's conversation)");
    await page.reload(); // from its address alone, it is still read-only
    await page
      .locator('.chat-msg-assistant')
      .getByText(/אופה חלות שוקולד בכל יום שישי/)
      .waitFor();
    await page.getByRole('note').waitFor();
    expect(await page.getByLabel('Message').count()).toBe(0);

    await page.getByRole('button', { name: 'Back to dashboard' }).click();
    await page.getByRole('button', { name: 'Chat history' }).click();
    await visitorRow().getByRole('button', { name: 'Rename' }).click();
    await dialog.getByLabel('New title').fill('Chocolate challah'); // the one row being renamed
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Chocolate challah').waitFor();
    await visitorRow().getByRole('button', { name: 'Delete' }).click();
    await visitorRow().getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => dialog.locator('.badge-public').count()).toBe(0);
    expect(await dialog.getByText('Chocolate challah').count()).toBe(0);
  });
});
