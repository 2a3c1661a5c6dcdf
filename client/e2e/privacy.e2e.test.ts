import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he as chatHe } from '../src/features/chat/locales/he';
import { he as embedHe } from '../src/features/embed/locales/he';
import { he as privacyHe } from '../src/features/privacy/locales/he';
import { apiClient } from './api';
import { launchChromium, seriousViolations, signIn } from './browser';

/**
 * A visitor deletes their own conversation from the shared chat on a phone (390×844, Hebrew, the
 * default): a confirmation first, then the conversation is gone from their screen and, erased, from the
 * owner's Chat History; the owner's security log says a visitor deleted a conversation. Real Chromium,
 * real embedded server (its subject erasure), builtin answer engine.
 */
const baseUrl = inject('baseUrl');
const email = `privacy-owner-${Date.now()}@example.com`;
const password = 'Kesher-Privacy-2026!';
const assistantName = 'Pottery studio';
const question = 'מתי פתוח הסטודיו לקרמיקה? הטלפון שלי 050-7654321';

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
        description: 'עונה על שאלות על הסטודיו.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await api.upload(assistantId, 'studio.txt', 'הסטודיו לקרמיקה פתוח בימים ראשון עד חמישי מתשע בבוקר עד שש בערב.\n');
  shareToken = (
    await api.call<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Every message text of every conversation the owner's Chat History lists for the assistant. */
async function ownerSees(): Promise<string> {
  const threads = await api.call<{ id: string }[]>(`/assistants/${assistantId}/threads`);
  const texts: string[] = [];
  for (const thread of threads) {
    const messages = await api
      .call<{ data: { content: { text: { value: string } }[] }[] }>(`/threads/${thread.id}/messages`)
      .catch(() => ({ data: [] }));
    texts.push(JSON.stringify(messages));
  }
  return texts.join('\n');
}

describe('a visitor deletes their conversation', () => {
  it("asks first, then the conversation is gone from the visitor, from Chat History, and is in the owner's security log", async () => {
    await expect
      .poll(
        async () =>
          (await api.call<{ status: string }[]>(`/assistants/${assistantId}/files`)).map((f) => f.status).join(','),
        { timeout: 30_000 },
      )
      .toBe('ready');
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const tab = await context.newPage();
    tab.setDefaultTimeout(20_000);
    await tab.goto(`/shared-chat/${shareToken}`);
    await tab.waitForURL(/\/public-chat\/\d+/);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    expect(await tab.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // Nothing to delete before the first message.
    expect(await tab.getByRole('button', { name: privacyHe.deleteConversation.button }).count()).toBe(0);

    const input = tab.getByLabel(chatHe.messageLabel);
    await input.fill(question);
    await input.press('Enter');
    await tab.locator('.chat-msg-user').getByText(question).waitFor();
    await expect.poll(() => tab.locator('.chat-msg-assistant').count(), { timeout: 20_000 }).toBe(1);
    await tab.waitForURL(/\/public-chat\/\d+\/[A-Za-z0-9_-]+/);
    await expect.poll(ownerSees, { timeout: 15_000 }).toContain('050-7654321');

    // The button is in the header, on screen; it asks before it deletes, and Cancel keeps everything.
    const remove = tab.getByRole('button', { name: privacyHe.deleteConversation.button });
    const box = (await remove.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390.5);
    await remove.click();
    await tab.getByText(privacyHe.deleteConversation.confirm).waitFor();
    await tab.getByRole('button', { name: privacyHe.deleteConversation.cancel }).click();
    await tab.getByText(privacyHe.deleteConversation.confirm).waitFor({ state: 'detached' });
    expect(await tab.locator('.chat-msg-user').count()).toBe(1);

    await remove.click();
    await tab.getByRole('button', { name: privacyHe.deleteConversation.yes, exact: true }).click();
    await tab.getByRole('status').getByText(privacyHe.deleteConversation.deleted).waitFor();
    // The chat starts afresh: no thread in the address, no messages on screen.
    await tab.waitForURL(/\/public-chat\/\d+(\?.*)?$/);
    await expect.poll(() => tab.locator('.chat-msg').count()).toBe(0);

    // Erased: the owner no longer reads what the visitor wrote.
    await expect.poll(ownerSees, { timeout: 15_000 }).not.toContain('050-7654321');
    const log = await api.call<{ entries: { kind: string; actor: string }[] }>('/auth/me/security-log');
    expect(log.entries).toContainEqual(expect.objectContaining({ kind: 'conversation_erased', actor: 'visitor' }));
    await context.close();
  });
});

describe('a visitor clears their conversation in the widget', () => {
  it('deletes it on the server too: after Clear the owner no longer reads it (phone, Hebrew)', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const tab = await context.newPage();
    tab.setDefaultTimeout(20_000);
    await tab.goto(`/embed/${shareToken}`);
    await tab.getByRole('heading', { name: assistantName, level: 1 }).waitFor();
    const words = 'אני רוצה לקבוע שיעור, המייל שלי noa@example.org';
    const input = tab.getByLabel(embedHe.messageLabel);
    await input.fill(words);
    await input.press('Enter');
    await tab.locator('.embed-msg-user').getByText(words).waitFor();
    await tab.getByText(embedHe.thinking).waitFor({ state: 'detached' });
    await expect.poll(ownerSees, { timeout: 15_000 }).toContain('noa@example.org');

    await tab.getByRole('button', { name: embedHe.clearConversation }).click();
    await tab.getByRole('button', { name: embedHe.clearYes, exact: true }).click();
    await expect.poll(() => tab.locator('.embed-msg-user').count()).toBe(0);
    await expect.poll(ownerSees, { timeout: 15_000 }).not.toContain('noa@example.org');
    await context.close();
  });
});

describe("the owner's data on /privacy", () => {
  it("shows the retention periods to anyone; signed in, downloads the zip of the owner's data, and lists the export in the security log (Hebrew, desktop)", async () => {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1366, height: 900 },
      acceptDownloads: true,
    });
    const tab = await context.newPage();
    tab.setDefaultTimeout(20_000);
    // Signed out: the periods, and nothing about anyone's data.
    await tab.goto('/privacy');
    await tab.getByText(privacyHe.retention.conversations.replace('{days}', '90')).waitFor();
    expect(await tab.getByRole('button', { name: privacyHe.yourData.download }).count()).toBe(0);
    expect(new URL(tab.url()).pathname).toBe('/privacy');
    await signIn(tab, email, password);
    await tab.goto('/privacy');
    await tab.getByText(privacyHe.retention.conversations.replace('{days}', '90')).waitFor();
    const [download] = await Promise.all([
      tab.waitForEvent('download'),
      tab.getByRole('button', { name: privacyHe.yourData.download }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kesher-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    // A zip (its entries' names are stored as they are; their content is the API test's to read).
    const zip = await readFile((await download.path())!);
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    for (const entry of [
      'account.json',
      'assistants.json',
      'conversations.json',
      'conversations.csv',
      'payments/payments.csv',
    ])
      expect(zip.includes(entry)).toBe(true);
    // The export is in the security log, above the visitor's deletion.
    await tab.getByText(privacyHe.yourData.kinds.data_exported).waitFor();
    await tab.getByText(privacyHe.yourData.kinds.conversation_erased).first().waitFor();
    expect(await seriousViolations(tab)).toEqual([]);
    await context.close();
  });
});
