import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { launchChromium, seriousViolations } from './browser';

/**
 * Workflows, guidelines and actions in a real Chromium against the real embedded server and its builtin
 * answer engine: a guideline written on /guidelines changes the next answer (and stops when turned off);
 * an API action against a local order service (127.0.0.1, let through by OUTBOUND_ALLOWLIST in
 * e2e/server.ts) is tested from /actions, linked to a workflow on /workflows, and a visitor's conversation
 * through the share link fires the workflow and gets the order's status from the service.
 */
const baseUrl = inject('baseUrl');
const email = `automation-owner-${Date.now()}@example.com`;
const password = 'Kesher-Automate-2026!';
const assistantName = 'Harbor Bakery helper';
const fact = 'The Harbor Bakery bakes blueberry scones every Tuesday at five in the morning.';
const signOff = '— The Harbor team';

let orders: Server;
let ordersUrl: string;
const orderCalls: string[] = [];
/** The Authorization header of each call, as the order service received it. */
const orderAuth: string[] = [];
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let assistantId: number;
let shareToken: string;
const api = apiClient(baseUrl, () => token);

async function audit(target: Page, label: string) {
  const found = (await seriousViolations(target)).map(
    (v) => `${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(found, `axe on ${label}`).toEqual([]);
}

/** Asks on a new /chat thread and returns the assistant's answer text. */
async function ask(question: string): Promise<string> {
  await page.goto(`/chat/${assistantId}`);
  const input = page.getByLabel('Message');
  await input.fill(question);
  await input.press('Enter');
  await page.getByText('Response ready!').waitFor({ timeout: 60_000 });
  return (await page.locator('.chat-msg-assistant').last().locator('.chat-bubble').innerText()).trim();
}

beforeAll(async () => {
  // A small order service the action calls: GET /orders/{id} answers the order's status as JSON.
  orders = createServer((request, response) => {
    orderCalls.push(`${request.method} ${request.url}`);
    if (request.headers.authorization) orderAuth.push(request.headers.authorization);
    const match = /^\/orders\/([^/?]+)$/.exec(request.url ?? '');
    if (request.method !== 'GET' || !match)
      return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ order: decodeURIComponent(match[1]!), status: 'shipped', eta: 'Thursday' }));
  });
  await new Promise<void>((resolve) => orders.listen(0, '127.0.0.1', resolve));
  ordersUrl = `http://127.0.0.1:${(orders.address() as AddressInfo).port}`;

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
        description: 'Answers questions about the Harbor Bakery.',
        instructions: 'Answer from the files only.',
      }),
    })
  ).assistant_id;
  await api.upload(assistantId, 'harbor.txt', `${fact}\nWe also sell coffee.\n`);
  shareToken = (
    await api.call<{ share_token: string }>(`/assistants/${assistantId}/generate-share-token`, { method: 'POST' })
  ).share_token;
  // The file is knowledge once ingested (expect.poll only runs inside a test): wait for its status.
  for (const deadline = Date.now() + 60_000; ;) {
    const status = (await api.call<{ status: string }[]>(`/assistants/${assistantId}/files`))
      .map((f) => f.status)
      .join(',');
    if (status === 'ready') break;
    if (Date.now() > deadline) throw new Error(`harbor.txt not ingested: ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl });
  await context.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
  });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard');
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => orders?.close(resolve));
});

describe('guidelines change how the assistant answers', () => {
  it('answers without any guideline first', async () => {
    const answer = await ask('When do you bake blueberry scones?');
    expect(answer).toMatch(/blueberry scones every Tuesday/);
    expect(answer).not.toContain(signOff);
  });

  it('writes two guidelines on /guidelines (a preferred phrase, a sign-off) and the next answer follows both', async () => {
    await page.goto('/guidelines');
    await page.getByText('No guidelines yet').waitFor();
    await audit(page, '/guidelines (empty)');

    await page.getByRole('button', { name: 'Add Guideline' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create Guideline' });
    await dialog.getByLabel('Title *').fill('Say pastries');
    await dialog.getByLabel('Category *').selectOption('phrase');
    await dialog.getByText('Say "happy to help" instead of "no problem".').waitFor(); // the category's examples
    await dialog.getByLabel('Instructions *').fill('Use "pastries" instead of "scones".');
    await audit(page, 'the guideline modal');
    await dialog.getByRole('button', { name: 'Create Guideline' }).click();
    await page.getByRole('article', { name: 'Say pastries' }).waitFor();

    await page.getByRole('button', { name: 'Add Guideline' }).click();
    dialog = page.getByRole('dialog', { name: 'Create Guideline' });
    await dialog.getByLabel('Title *').fill('Sign off');
    await dialog.getByLabel('Category *').selectOption('format');
    await dialog.getByLabel('Instructions *').fill(`End every answer with "${signOff}"`);
    await dialog.getByRole('button', { name: 'Create Guideline' }).click();
    const card = page.getByRole('article', { name: 'Sign off' });
    await card.getByText('Formatting').waitFor();
    expect(await card.getByRole('switch', { name: 'Active: Sign off' }).isChecked()).toBe(true);
    await audit(page, '/guidelines (two cards)');

    const answer = await ask('When do you bake blueberry scones?');
    expect(answer).toMatch(/blueberry pastries every Tuesday/);
    expect(answer.split('\n').at(-1)!.trim()).toBe(signOff);
  });

  it('turns the sign-off off with its toggle, and the next answer no longer has it', async () => {
    await page.goto('/guidelines');
    const card = page.getByRole('article', { name: 'Sign off' });
    const toggle = card.getByRole('switch', { name: 'Active: Sign off' });
    await toggle.uncheck();
    expect(await toggle.isChecked()).toBe(false);
    await expect.poll(async () => (await card.getAttribute('class')) ?? '').toContain('automation-card-inactive');
    // The card turns at once; the server's list once the change is stored and read back.
    await expect
      .poll(
        async () =>
          (await api.call<{ title: string; active: boolean }[]>('/guidelines')).find((g) => g.title === 'Sign off')
            ?.active,
      )
      .toBe(false);

    const answer = await ask('When do you bake blueberry scones?');
    expect(answer).toMatch(/blueberry pastries every Tuesday/);
    expect(answer).not.toContain(signOff);
  });
});

describe("a workflow with an API action fires in a visitor's conversation", () => {
  it('creates the API action on /actions and its Test answers from the order service as JSON', async () => {
    await page.goto('/actions');
    await page.getByText('No actions yet').waitFor();
    await page.getByRole('button', { name: 'Add Action' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Action' });
    await dialog.getByLabel('Title *').fill('Order status');
    await dialog.getByLabel('Description').fill('Looks up an order by its id');
    await dialog.getByLabel('Endpoint URL *').fill(`${ordersUrl}/orders/{{order_id}}`);
    await dialog.getByText('No input is named: order_id').waitFor();
    await dialog.getByRole('button', { name: 'Add input' }).click();
    await dialog.getByLabel('Name of the new input').fill('order_id');
    await dialog.getByLabel('Name of the new input').press('Enter');
    await dialog.getByLabel('Type of order_id').waitFor();
    expect(await dialog.getByText('No input is named: order_id').count()).toBe(0);
    expect(await dialog.getByLabel('Body template (JSON)').count()).toBe(0); // GET has no body
    await audit(page, 'the action modal');
    await dialog.getByRole('button', { name: 'Create Action' }).click();

    const card = page.getByRole('article', { name: 'Order status' });
    await card.getByText('order_id (string)*').waitFor();
    await card.getByRole('button', { name: 'Test' }).click();
    const test = page.getByRole('dialog', { name: 'Test: Order status' });
    await test.getByText('Test successful!', { exact: true }).waitFor();
    const shown = JSON.parse(await test.getByTestId('action-test-response').innerText());
    expect(shown.response).toEqual({ order: 'test_value', status: 'shipped', eta: 'Thursday' });
    expect(orderCalls).toContain('GET /orders/test_value');
    await audit(page, 'the action test');
    await test.getByRole('button', { name: 'Cancel' }).click();
  });

  it('creates the workflow on /workflows with its phrases and the action, and the check box says it fires', async () => {
    await page.goto('/workflows');
    await page.getByText('No workflows yet').waitFor();
    await page.getByRole('button', { name: 'Add Workflow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Workflow' });
    await dialog.getByLabel('Title *').fill('Track an order');
    await dialog.getByLabel('Trigger condition *').fill('The customer asks where their order is');
    const phrases = [
      'where is my order',
      'track my order',
      'has my order shipped',
      'when will my order arrive',
      'order status please',
    ];
    for (const [index, phrase] of phrases.entries()) {
      if (index > 0) await dialog.getByRole('button', { name: 'Add phrase' }).click();
      await dialog.getByLabel(`Training phrase ${index + 1}`).fill(phrase);
    }
    await dialog.getByText('5 phrases').waitFor();
    await dialog
      .getByLabel('Instructions *')
      .fill('Say: "Let me check that order for you." Then look the order up and tell the status.');
    await dialog.getByRole('checkbox', { name: /Order status/ }).check();
    await audit(page, 'the workflow modal');
    await dialog.getByRole('button', { name: 'Create Workflow' }).click();

    const card = page.getByRole('article', { name: 'Track an order' });
    await card.getByText('The customer asks where their order is').waitFor();
    expect(await card.locator('.automation-phrases li').count()).toBe(3);
    await card.getByText('+2 more').waitFor();
    await card.getByText('Order status', { exact: true }).waitFor();

    const box = page.getByRole('region', { name: 'Which workflow would fire?' });
    await box.getByLabel('Visitor message').fill('Where is my order A-1234?');
    await box.getByRole('button', { name: 'Check' }).click();
    await box.getByText('Fires: Track an order').waitFor();
    await box.getByText(/^Score \d+% \(fires at \d+%\)$/).waitFor();
    await audit(page, '/workflows');
  });

  it('a visitor asks about an order through the share link: the workflow fires, the action calls the service and its answer is quoted', async () => {
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: baseUrl });
    await visitor.addInitScript(() => localStorage.setItem('language', 'en'));
    const tab = await visitor.newPage();
    tab.setDefaultTimeout(30_000);
    await tab.goto(`/shared-chat/${shareToken}`);
    await tab.waitForURL(new RegExp(`/public-chat/${assistantId}$`));
    const input = tab.getByLabel('Message');
    await input.fill('Hi, where is my order A-1234?');
    await tab.getByRole('button', { name: 'Send' }).click();
    await tab.getByText('Response ready!').waitFor({ timeout: 60_000 });
    const answer = await tab.locator('.chat-msg-assistant').last().innerText();
    expect(orderCalls).toContain('GET /orders/A-1234');
    expect(answer).toContain('Order status');
    expect(answer).toMatch(/status: shipped/);
    expect(answer).toMatch(/eta: Thursday/);
    await visitor.close();
  });

  it("the owner opens the visitor's conversation from Chat History and reads under the answer which workflow fired, why, and how its action went; the card counts the firing", async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Chat history' }).click();
    await page
      .getByRole('dialog')
      .locator('.thread-row', { has: page.locator('.badge-public') })
      .getByRole('button', { name: 'Resume' })
      .click();
    await page.waitForURL(new RegExp(`/chat/${assistantId}/thread_[A-Za-z0-9_-]+$`));
    const note = page.locator('.chat-msg-assistant').last().locator('details.automation-note');
    await note.locator('summary').getByText('Workflow: Track an order').waitFor();
    await note.locator('summary').click();
    await note.getByText(/Fired(:| by) this message.*\(score \d+%\)\.$/).waitFor();
    expect(await note.locator('.automation-note-phrases li').count()).toBeGreaterThan(0);
    expect(await note.locator('.automation-note-actions li').first().innerText()).toMatch(
      /^Order status: succeeded · HTTP 200 · \d+ ms$/,
    );
    expect(await page.locator('.chat-msg-user details').count()).toBe(0); // under answers only
    await audit(page, "/chat (a visitor's conversation with the automation note)");

    await page.goto('/workflows');
    await page.getByRole('article', { name: 'Track an order' }).getByText('Fired: 1', { exact: true }).waitFor();
  });

  it("edits the workflow to add Hebrew phrases, and a Hebrew visitor's question fires it too", async () => {
    await page.goto('/workflows');
    await page.getByRole('article', { name: 'Track an order' }).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Workflow' });
    await dialog.getByLabel('Training phrase 5').waitFor();
    for (const [offset, phrase] of ['איפה ההזמנה שלי', 'מה מצב ההזמנה שלי'].entries()) {
      await dialog.getByRole('button', { name: 'Add phrase' }).click();
      await dialog.getByLabel(`Training phrase ${6 + offset}`).fill(phrase);
    }
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: 'Track an order' }).getByText('+4 more').waitFor();

    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: baseUrl });
    const tab = await visitor.newPage(); // Hebrew: the visitor pages' default
    tab.setDefaultTimeout(30_000);
    await tab.goto(`/shared-chat/${shareToken}`);
    await tab.waitForURL(new RegExp(`/public-chat/${assistantId}$`));
    await tab.getByLabel('הודעה').fill('שלום, איפה ההזמנה שלי B-5678?');
    await tab.getByRole('button', { name: 'שליחה' }).click();
    await tab.getByText('התשובה מוכנה!').waitFor({ timeout: 60_000 });
    const answer = await tab.locator('.chat-msg-assistant').last().innerText();
    // Said when it fails (once in a CI run, not reproduced since): what the visitor was answered.
    expect(orderCalls, `the answer: ${answer}`).toContain('GET /orders/B-5678');
    expect(answer).toMatch(/status: shipped/);
    await visitor.close();
  });

  it('deletes the workflow after the confirmation', async () => {
    await page.goto('/workflows');
    const card = page.getByRole('article', { name: 'Track an order' });
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete this workflow?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No workflows yet').waitFor();
  });
});

describe("the assistant's external API endpoints", () => {
  it('saves a named endpoint on the edit page with its secret masked, probes it, and an action calls it by name with the secret', async () => {
    await page.goto(`/edit-assistant/${assistantId}`);
    const section = page.getByRole('region', { name: 'External API endpoints' });
    await section.getByText('No endpoints yet.').waitFor();
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    await section.getByLabel('Name *', { exact: true }).fill('orders');
    await section.getByLabel('Base URL *').fill(ordersUrl);
    await section.getByLabel('Auth header value').fill('Bearer orders-secret-9876');
    await section.getByRole('button', { name: 'Save endpoints' }).click();
    await section.getByRole('button', { name: 'Test connection' }).click();
    await section.getByText(/^Connected: HTTP \d+ in \d+ ms$/).waitFor();
    expect(orderAuth).toContain('Bearer orders-secret-9876');
    await audit(page, '/edit-assistant with the external API endpoints');

    // Read back after a reload: the secret is masked, never shown again.
    await page.reload();
    const secret = section.getByLabel('Auth header value');
    await expect.poll(() => secret.inputValue()).toMatch(/^\*{8}9876$/);
    await section.getByText('Leave empty to keep the saved secret').waitFor();

    await page.goto('/actions');
    await page.getByRole('button', { name: 'Add Action' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Action' });
    await dialog.getByLabel('Title *').fill('Order lookup by name');
    await dialog.getByLabel('Named endpoint (optional)').fill('orders');
    await dialog.getByLabel('Endpoint URL *').fill('/orders/{{order_id}}');
    await dialog.getByRole('button', { name: 'Add input' }).click();
    await dialog.getByLabel('Name of the new input').fill('order_id');
    await dialog.getByLabel('Name of the new input').press('Enter');
    await dialog.getByLabel('Type of order_id').waitFor();
    await dialog.getByRole('button', { name: 'Create Action' }).click();
    const card = page.getByRole('article', { name: 'Order lookup by name' });
    await card.getByText('orders:/orders/{{order_id}}').waitFor();
    await card.getByRole('button', { name: 'Test' }).click();
    const test = page.getByRole('dialog', { name: 'Test: Order lookup by name' });
    await test.getByLabel('Assistant whose endpoints the test uses').selectOption({ label: assistantName });
    const before = orderAuth.length;
    await test.getByRole('button', { name: 'Test', exact: true }).click();
    await test.getByText('Test successful!', { exact: true }).waitFor();
    expect(JSON.parse(await test.getByTestId('action-test-response').innerText()).response).toEqual({
      order: 'test_value',
      status: 'shipped',
      eta: 'Thursday',
    });
    expect(orderAuth.slice(before)).toEqual(['Bearer orders-secret-9876']);
    await test.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('on a phone in Hebrew', () => {
  it('the three pages are right-to-left, in Hebrew, and nothing overflows 360 px, modals included', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, baseURL: baseUrl });
    const stored = await page.evaluate(() => [
      localStorage.getItem('firebaseToken'),
      localStorage.getItem('currentUserUid'),
    ]);
    await phone.addInitScript(([bearer, uid]) => {
      localStorage.setItem('language', 'he');
      localStorage.setItem('firebaseToken', bearer!);
      if (uid) localStorage.setItem('currentUserUid', uid);
    }, stored);
    const mobile = await phone.newPage();
    mobile.setDefaultTimeout(30_000);
    const fits = async (label: string) =>
      expect(await mobile.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(360);

    await mobile.goto('/guidelines');
    await mobile.getByRole('heading', { name: 'הנחיות', level: 1 }).waitFor();
    await mobile.getByRole('article', { name: 'Sign off' }).getByText('לא פעילה').waitFor();
    expect(await mobile.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await fits('/guidelines');

    await mobile.goto('/actions');
    await mobile.getByRole('article', { name: 'Order status' }).getByText('API מותאם').waitFor();
    await fits('/actions');
    await mobile.getByRole('button', { name: 'עריכה' }).first().click();
    const dialog = mobile.getByRole('dialog', { name: 'עריכת פעולה' });
    await dialog.getByLabel('כתובת נקודת הקצה *').waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth + 1)).toBe(true);
    await dialog.getByRole('button', { name: 'ביטול' }).click();

    await mobile.goto('/workflows');
    await mobile.getByText('עדיין אין תהליכים').waitFor();
    await mobile.getByRole('button', { name: 'הוספת תהליך' }).click();
    const create = mobile.getByRole('dialog', { name: 'יצירת תהליך' });
    await create.getByLabel('תנאי הפעלה *').waitFor();
    expect(await create.evaluate((d) => d.scrollWidth <= d.clientWidth + 1)).toBe(true);
    await fits('/workflows');
    await create.getByRole('button', { name: 'ביטול' }).click();

    await mobile.goto(`/edit-assistant/${assistantId}`);
    const section = mobile.getByRole('region', { name: 'נקודות קצה של API חיצוני' });
    await section.getByRole('button', { name: 'בדיקת חיבור' }).waitFor();
    await fits('/edit-assistant');

    // The first visitor's conversation (its action answered, tested above), read by the owner in Hebrew:
    // the automation note under the answer fits too.
    const threads = await api.call<{ id: string; is_public: boolean; created_at: number }[]>(
      `/assistants/${assistantId}/threads`,
    );
    const first = threads.filter((thread) => thread.is_public).sort((a, b) => a.created_at - b.created_at)[0]!;
    await mobile.goto(`/chat/${assistantId}/${first.id}`);
    const note = mobile.locator('.chat-msg-assistant').last().locator('details.automation-note');
    await note.locator('summary').getByText('תהליך: Track an order').waitFor();
    await note.locator('summary').click();
    await note.getByText(/הופעל(:| על ידי) ההודעה/).waitFor();
    expect(await note.locator('.automation-note-actions li').first().innerText()).toMatch(
      /^Order status: הצליחה · HTTP 200 · \d+ מילישניות$/,
    );
    await fits('/chat (the automation note)');
    await phone.close();
  });
});
