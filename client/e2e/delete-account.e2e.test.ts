import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he } from '../src/features/auth/locales/delete-account/he';
import { apiClient } from './api';
import { launchChromium, seriousViolations, signIn } from './browser';

/**
 * "Delete my account" (issue 24), in a real Chromium against the real embedded server: the settings page
 * in Hebrew (the default, right to left), a wrong password refused with its text, the right one deletes
 * the account, the app is signed out, the old session is refused, and the address registers again.
 */
const baseUrl = inject('baseUrl');
const email = `leaving-${Date.now()}@example.com`;
const password = 'Kesher-Leave-2026!';

let browser: Browser;
let page: Page;
let token: string | undefined;
const api = apiClient(baseUrl, () => token);

beforeAll(async () => {
  token = (
    await api.call<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
  ).access_token;
  browser = await launchChromium();
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await browser?.close();
});

describe('delete my account, in the browser', () => {
  it('asks for the password again, refuses a wrong one, then deletes the account and signs out', async () => {
    await signIn(page, email, password);
    await page.goto('/settings');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByRole('heading', { name: he.title }).waitFor();
    const violations = await seriousViolations(page);
    expect(violations.map((v) => v.id)).toEqual([]);

    await page.getByRole('button', { name: he.open }).click();
    const dialog = page.getByRole('dialog', { name: he.confirmTitle });
    await dialog.getByLabel(he.password).fill('not-my-password');
    await dialog.getByRole('button', { name: he.confirm }).click();
    await dialog.getByText(he.errors.wrongPassword).waitFor();

    await dialog.getByLabel(he.password).fill(password);
    await dialog.getByRole('button', { name: he.confirm }).click();
    await page.getByText(he.deleted).waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    // The old session is over everywhere, and the address is free for a new account.
    await expect(api.call('/auth/me')).rejects.toThrow(/401/);
    token = undefined;
    const again = await api.call<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    });
    expect(again.access_token).toBeTruthy();
  });
});
