import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleStandIn, type GoogleStandIn } from '../../services/src/drive/testing/google-stand-in';
import { apiClient } from './api';
import { launchChromium, seriousViolations, signIn } from './browser';
import { startKesher } from './server';

/**
 * Google Drive import in a real Chromium on a phone-sized screen: an owner on a paid plan opens Manage
 * Files, connects Drive (its own server here, pointed at a local stand-in of Google's OAuth and Drive
 * endpoints, whose consent screen agrees at once), comes back to the dashboard with the files modal open,
 * picks a Google Doc and a Sheet, imports them and sees them among the assistant's files.
 */
const email = `drive-owner-${Date.now()}@example.com`;
const password = 'Kesher-Drive-2026!';
const assistantName = 'Crumb bakery helper';

let google: GoogleStandIn;
let kesher: Awaited<ReturnType<typeof startKesher>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let assistantId: number;

beforeAll(async () => {
  google = await startGoogleStandIn({
    files: [
      {
        id: 'doc-hours',
        name: 'Opening hours',
        mimeType: 'application/vnd.google-apps.document',
        content: 'Crumb opens at seven in the morning, Sunday to Friday.',
      },
      {
        id: 'sheet-prices',
        name: 'Prices',
        mimeType: 'application/vnd.google-apps.spreadsheet',
        content: 'item,price\nsourdough,24\ncroissant,9\n',
      },
      {
        id: 'notes',
        name: 'Delivery notes.txt',
        mimeType: 'text/plain',
        content: 'We deliver to the harbour on Tuesdays.',
      },
    ],
  });
  kesher = await startKesher({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_AUTHORIZE_URL: `${google.url}/o/oauth2/v2/auth`,
    GOOGLE_OAUTH_URL: google.url,
    GOOGLE_DRIVE_API_URL: google.url,
  });
  const api = apiClient(kesher.baseUrl, () => token);
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
        description: 'Answers about the bakery.',
        instructions: 'Answer from the files.',
      }),
    })
  ).assistant_id;
  await api.subscribeWithTestCard();

  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    baseURL: kesher.baseUrl,
    isMobile: true,
    hasTouch: true,
  });
  await context.addInitScript(() => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en');
  });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await kesher?.stop();
  await google?.close();
});

describe('Google Drive import', () => {
  it('connects Drive from Manage Files, comes back with the modal open, and imports the picked files', async () => {
    await signIn(page, email, password);
    await page.getByRole('button', { name: 'Manage files' }).click();
    const modal = page.getByRole('dialog', { name: `Manage Files — ${assistantName}` });
    await modal.getByRole('button', { name: 'Connect Google Drive' }).click();

    // Google's consent screen (the stand-in's agrees at once) → the API's return → /oauth/callback → the dashboard.
    await page.waitForURL('**/dashboard**');
    await modal.getByText('Opening hours').waitFor();
    expect(new URL(page.url()).search, 'the address is cleaned of the token').toBe('');
    expect(await page.evaluate(() => localStorage.getItem('googleDriveToken'))).toMatch(/^ya29\./);
    expect(google.requests.some((r) => r.path === '/o/oauth2/v2/auth')).toBe(true);

    await modal.getByLabel('Search your Drive').fill('Pri');
    await modal.getByText('Opening hours').waitFor({ state: 'detached' });
    await modal.getByRole('checkbox', { name: /Prices/ }).check();
    await modal.getByLabel('Search your Drive').fill('');
    await modal.getByRole('checkbox', { name: /Opening hours/ }).check();
    await modal.getByText('2 files selected').waitFor();
    expect(
      (await seriousViolations(page)).map((v) => `${v.id}: ${v.help}`),
      'axe on the Drive picker',
    ).toEqual([]);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'nothing wider than the phone').toBeLessThanOrEqual(0);

    await modal.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Successfully imported 2 file(s)').waitFor();
    await modal.getByText('Opening hours.txt').waitFor();
    await modal.getByText('Prices.csv').waitFor();
  });

  it('in the create-assistant form, the files picked from the connected Drive are imported into the new assistant', async () => {
    await page.goto('/create-assistant');
    await page.getByLabel('Assistant name *').fill('Crumb delivery helper');
    await page.getByLabel('Description *').fill('Answers about deliveries.');
    await page.getByLabel('Instructions *').fill('Answer from the files only.');
    const drive = page.getByRole('group', { name: 'Import from Google Drive' });
    await drive.getByRole('checkbox', { name: /Delivery notes\.txt/ }).check();
    await drive.getByText('1 file selected').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'the form with its Drive section fits the phone').toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Create Assistant', exact: true }).click();
    await page.waitForURL('**/dashboard');
    const api = apiClient(kesher.baseUrl, () => token);
    const created = (await api.call<{ id: number; name: string }[]>('/assistants/')).find(
      (a) => a.name === 'Crumb delivery helper',
    )!;
    const files = await api.call<{ filename: string }[]>(`/assistants/${created.id}/files`);
    expect(files.map((f) => f.filename)).toEqual(['Delivery notes.txt']);
    // Back to the first assistant's files, where the next test signs out of Drive.
    const first = page.locator('.assistant-card', {
      has: page.getByRole('heading', { name: assistantName, exact: true }),
    });
    await first.getByRole('button', { name: 'Manage files' }).click();
    await page
      .getByRole('dialog', { name: `Manage Files — ${assistantName}` })
      .getByRole('button', { name: 'Sign Out' })
      .waitFor();
  });

  it('signs out of Drive: the token is gone and Google was told', async () => {
    const modal = page.getByRole('dialog');
    await modal.getByRole('button', { name: 'Sign Out' }).click();
    await modal.getByRole('button', { name: 'Connect Google Drive' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('googleDriveToken'))).toBeNull();
    await expect.poll(() => google.revoked.length).toBeGreaterThan(0);
  });

  it('a consent link finished in another browser lands no grant, and a crafted return link plants no token', async () => {
    const api = apiClient(kesher.baseUrl, () => token);
    // The owner's link, opened by a stranger: another browser, no Kesher session, no cookie from the start.
    const { auth_url } = await api.call<{ auth_url: string }>('/google-drive/auth/url', {
      method: 'POST',
      body: JSON.stringify({ assistant_id: assistantId }),
    });
    const stranger = await browser.newContext({ baseURL: kesher.baseUrl });
    try {
      const strangerPage = await stranger.newPage();
      const returned = strangerPage.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/v1/google-drive/auth/callback',
      );
      await strangerPage.goto(auth_url);
      const landing = new URL((await (await returned).headerValue('location'))!);
      expect(landing.pathname).toBe('/oauth/callback');
      expect(landing.searchParams.get('google_drive_error')).toMatch(/started in another browser or session/);
      expect(landing.searchParams.get('google_drive_token')).toBeNull();
    } finally {
      await stranger.close();
    }
    await expect(api.call('/google-drive/auth/refresh', { method: 'POST', body: '{}' })).rejects.toThrow(
      /403.*Please sign in to Google Drive first/,
    );

    // A link to the return page made elsewhere, with a token of someone else's Drive: refused, nothing kept.
    await page.goto(
      '/oauth/callback?google_drive_token=ya29.planted&google_drive_success=true&open_modal=files&flow=forged',
    );
    await page
      .getByText(
        'Google Drive authentication failed: This Google Drive connection was started in another browser or session',
      )
      .waitFor();
    await page.waitForURL('**/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('googleDriveToken'))).toBeNull();
  });
});
