import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './api';
import { launchChromium } from './browser';

/**
 * Where the crawler's flows meet (issue 22 items 8, 9, 11, 12), in a real Chromium against the real
 * server, as an owner would see them: a scan of a site that cannot be reached, the page picker's rows on
 * a phone and a laptop, the toast after adding pages, the dialog's "last crawled" right after, the Edit
 * page showing the crawler set up from the dashboard, Manage pages' Actions at 1366 px, and a crawl id
 * left in the tab that names nothing.
 */
const baseUrl = inject('baseUrl');
const email = `crawler-flows-${Date.now()}@example.com`;
const password = 'Kesher-Crawl-2026!';
const assistantName = 'Crumb flows helper';

let site: Server;
let siteUrl: string;
let deadUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let assistantId: number;
const api = apiClient(baseUrl, () => token);

const layout = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/about">About</a> <a href="/contact">Contact</a> <a href="/a-rather-long-address/that-goes-on/and-on">Story</a></nav>` +
  `<main><h1>${title}</h1>${body}</main><footer>Crumb Bakery</footer></body></html>`;

const PAGES: Record<string, string> = {
  '/': layout(
    'Crumb Bakery',
    '<p>Crumb is a family bakery by the harbor. We bake sourdough bread, croissants and cakes every morning for the whole neighbourhood.</p>',
  ),
  '/pricing': layout(
    'Pricing',
    '<p>Our prices: a sourdough loaf costs 24 shekels, a croissant 9 shekels, a birthday cake from 180 shekels. Buy now and order online for pickup.</p>',
  ),
  '/about': layout(
    'About us',
    '<p>Crumb was founded in 1998 by two sisters who loved bread. We still use the original sourdough starter and stone oven.</p>',
  ),
  '/contact': layout(
    'Contact',
    '<p>Call us or visit the bakery at 3 Harbor Street. We are open Sunday to Friday from seven in the morning.</p>',
  ),
  '/a-rather-long-address/that-goes-on/and-on': layout(
    'The long and winding story of how our sourdough starter crossed the sea in 1998',
    '<p>A starter is flour and water kept alive. Ours came from our grandmother and is fed every single morning.</p>',
  ),
};

/** A screenshot of what the owner sees, for the closing note (in the system's temp folder). */
const shot = (target: Page, name: string) =>
  target.screenshot({ path: join(tmpdir(), `kesher-${name}`) }).catch(() => undefined);

/** Signs the browser in as the owner (the token in local storage, as the app keeps it). */
async function signIn(target: Page) {
  await target.goto('/login');
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(password);
  await target.getByRole('button', { name: 'Sign In', exact: true }).click();
  await target.waitForURL('**/dashboard');
}

beforeAll(async () => {
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    if (path === '/robots.txt')
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const html = PAGES[path];
    if (!html) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  // An address nothing listens on: the port of a server started and closed again.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  deadUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/`;
  await new Promise((resolve) => gone.close(resolve));

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
        description: 'Answers questions about the Crumb bakery.',
        instructions: 'Answer from the website.',
      }),
    })
  ).assistant_id;

  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: baseUrl });
  await context.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
  });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signIn(page);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

/** Each scanned page's row: its box, and whether its checkbox sits on the title's line. */
async function rowShapes(target: Page) {
  return target.locator('li.crawl-page').evaluateAll((rows) =>
    rows.map((row) => {
      const box = row.getBoundingClientRect();
      const check = row.querySelector('input[type=checkbox]')!.getBoundingClientRect();
      const title = row.querySelector('.crawl-page-title')!.getBoundingClientRect();
      return {
        height: box.height,
        width: box.width,
        checkOnTitleLine: check.top < title.bottom && check.bottom > title.top,
        checkBeforeTitle: check.right <= title.left + 1,
      };
    }),
  );
}

describe('the crawler where its flows meet', () => {
  it('says why a scan failed, keeps the form to fix the address, and saves no crawler for the dead address', async () => {
    await page.getByRole('button', { name: 'Crawler settings' }).click();
    const dialog = page.getByRole('dialog', { name: `Smart Web Crawler — ${assistantName}` });
    await dialog.getByLabel('Website URL').fill(deadUrl);
    await dialog.getByRole('button', { name: 'Start Smart Crawling' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toMatch(/could not be reached|No pages found/);
    // The form is still there, with the address, ready to be fixed.
    expect(await dialog.getByLabel('Website URL').inputValue()).toBe(deadUrl);
    expect(await dialog.getByRole('button', { name: 'Start Smart Crawling' }).isEnabled()).toBe(true);
    expect((await api.call<{ data: unknown }>(`/web-crawler/assistant/${assistantId}`)).data).toBeNull();
    await shot(page, 'crawler-scan-failed-1366.png');
  });

  it('lists each scanned page as one compact row, adds the chosen ones with a toast, and the dialog then says when', async () => {
    const dialog = page.getByRole('dialog', { name: `Smart Web Crawler — ${assistantName}` });
    await dialog.getByLabel('Website URL').fill(siteUrl);
    await dialog.getByRole('button', { name: 'Start Smart Crawling' }).click();
    const selection = page.getByRole('dialog', { name: 'Choose the pages to add' });
    await selection.waitFor({ timeout: 60_000 });
    await selection.getByLabel('Pricing').waitFor();
    await shot(page, 'crawler-rows-1366.png');
    const shapes = await rowShapes(page);
    console.log('rows at 1366 px', JSON.stringify(shapes));
    expect(shapes).toHaveLength(5);
    for (const shape of shapes) {
      // One line of title, one of address and facts: no 300 px stack with the checkbox above the title.
      expect(shape.height).toBeLessThan(90);
      expect(shape.checkOnTitleLine).toBe(true);
      expect(shape.width).toBeGreaterThan(500);
    }

    await selection.getByLabel('About us').uncheck();
    await selection.getByRole('button', { name: 'Add selected pages' }).click();
    // In view in the dialog's foot, and as a toast that stays after the dialog closes.
    const status = selection.getByRole('status').filter({ hasText: 'Pages added to the assistant: 4.' });
    await status.waitFor();
    const box = (await status.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    await selection.waitFor({ state: 'detached' });
    await page
      .locator('.toast, [role=status]')
      .filter({ hasText: 'Pages added to the assistant: 4.' })
      .first()
      .waitFor();

    // Right after: the dialog says when and how many (was "Last crawled: Not yet").
    await page.getByRole('button', { name: 'Crawler settings' }).click();
    const again = page.getByRole('dialog', { name: `Smart Web Crawler — ${assistantName}` });
    await again.getByRole('button', { name: 'Crawl Again' }).waitFor();
    const facts = await again.locator('.crawler-config dd').allTextContents();
    expect(facts[2]).not.toBe('Not yet');
    expect(facts[3]).toBe('4');
  });

  it("shows Manage pages' Actions whole at 1366 px", async () => {
    const dialog = page.getByRole('dialog', { name: `Smart Web Crawler — ${assistantName}` });
    await dialog.getByRole('button', { name: 'Manage pages' }).click();
    const settings = page.getByRole('dialog', { name: `Crawler Settings — ${assistantName}` });
    await settings.getByRole('cell', { name: 'Pricing', exact: true }).waitFor();
    const frame = (await settings.boundingBox())!;
    const actions = (await settings.getByRole('columnheader', { name: 'Actions' }).boundingBox())!;
    const lastButton = (await settings.getByRole('button', { name: 'View file' }).first().boundingBox())!;
    expect(actions.x + actions.width).toBeLessThanOrEqual(frame.x + frame.width);
    expect(lastButton.x + lastButton.width).toBeLessThanOrEqual(frame.x + frame.width);
    // Nothing hidden behind a horizontal scroll either.
    expect(await settings.locator('.table-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await shot(page, 'crawler-manage-pages-1366.png');
    await page.keyboard.press('Escape');
  });

  it("shows the crawler set up from the dashboard on the assistant's Edit page: on, its address, Sales Mode allowed", async () => {
    await page.goto(`/edit-assistant/${assistantId}`);
    const crawler = page.getByRole('switch', { name: /crawler/i }).first();
    await crawler.waitFor();
    expect(await crawler.isChecked()).toBe(true);
    expect(await page.getByLabel('Website URL').inputValue()).toBe(siteUrl);
    const sales = page.getByRole('switch', { name: /sales/i }).first();
    expect(await sales.isEnabled()).toBe(true);
  });

  it("after Crawl Again, the dialog's count and time are the crawl's, not the ones from before", async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Crawler settings' }).click();
    const dialog = page.getByRole('dialog', { name: `Smart Web Crawler — ${assistantName}` });
    await dialog.getByRole('button', { name: 'Crawl Again' }).click();
    const panel = page.getByRole('complementary', { name: 'Crawl progress' });
    await panel.getByText('Completed · 100%').waitFor({ timeout: 60_000 });
    const server = (
      await api.call<{ data: { files_count: number; last_crawled: string } }>(`/web-crawler/assistant/${assistantId}`)
    ).data;
    // Crawl Again adds every page of the site: five now, where the dialog said four before.
    expect(server.files_count).toBe(5);
    await page.getByRole('button', { name: 'Crawler settings' }).click();
    const again = page.getByRole('dialog', { name: `Smart Web Crawler — ${assistantName}` });
    await expect.poll(async () => (await again.locator('.crawler-config dd').allTextContents())[3]).toBe('5');
    const shown = (await again.locator('.crawler-config dd').allTextContents())[2]!;
    const expected = await page.evaluate(
      (iso) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
      server.last_crawled,
    );
    expect(shown).toBe(expected);
    await page.keyboard.press('Escape');
  });

  it('on a phone in Hebrew: the scanned pages are compact rows right to left', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: baseUrl });
    await phone.addInitScript(() => localStorage.setItem('language', 'he'));
    const mobile = await phone.newPage();
    mobile.setDefaultTimeout(30_000);
    await signIn(mobile);
    await mobile.getByRole('button', { name: 'הגדרות סורק' }).first().click();
    const dialog = mobile.getByRole('dialog');
    await dialog.getByRole('button', { name: 'שינוי אתר' }).click();
    await dialog.getByRole('button', { name: 'התחלת סריקה חכמה' }).click();
    const selection = mobile.getByRole('dialog', { name: 'בחרו את הדפים להוספה' });
    await selection.waitFor({ timeout: 60_000 });
    await selection.locator('li.crawl-page').first().waitFor();
    await shot(mobile, 'crawler-rows-390-he.png');
    const shapes = await rowShapes(mobile);
    console.log('rows at 390 px (he)', JSON.stringify(shapes));
    expect(shapes).toHaveLength(5);
    for (const shape of shapes) {
      expect(shape.height).toBeLessThan(130);
      expect(shape.checkOnTitleLine).toBe(true);
    }
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await mobile.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await phone.close();
  });

  it('forgets a crawl id left in the tab that names nothing, instead of "Crawling… 0%" for ever on /analytics', async () => {
    await page.evaluate(() => {
      sessionStorage.setItem('activeCrawlId', 'crawl_left_over_from_another_session');
      sessionStorage.setItem('activeCrawlUrl', 'https://example.com/');
      sessionStorage.setItem('crawlStartTime', String(Date.now()));
    });
    await page.goto('/analytics');
    await expect
      .poll(() => page.evaluate(() => sessionStorage.getItem('activeCrawlId')), { timeout: 30_000 })
      .toBeNull();
    expect(await page.getByRole('complementary', { name: 'Crawl progress' }).count()).toBe(0);
  });
});
