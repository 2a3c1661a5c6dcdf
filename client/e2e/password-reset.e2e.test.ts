import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { he } from '../src/features/auth/locales/he';
import { serverText } from '../src/lib/server-texts';
import { apiClient } from './api';
import { launchChromium, seriousViolations, signIn } from './browser';

/**
 * Forgot password → reset by the mailed link, in a real Chromium against the real embedded server (what
 * `make start` runs, with no mail server: the mail is read from its outbox under DATA_DIR). The pages
 * after /login are in Hebrew, the product's default, right to left. Also: the gentle "verify your
 * e-mail" reminder with its "resend", and the end of the old session once the password is reset.
 */
const baseUrl = inject('baseUrl');
const outboxDir = inject('outboxDir');
const email = `forgetful-${Date.now()}@example.com`;
const oldPassword = 'Kesher-Old-2026!';
const newPassword = 'Kesher-New-2026!';

let browser: Browser;

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The mails the server kept for `to` whose text links to `path`, oldest first. */
function linksTo(to: string, path: string): URL[] {
  if (!existsSync(outboxDir)) return [];
  return readdirSync(outboxDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(outboxDir, name), 'utf8')) as OutboxMail)
    .filter((mail) => mail.to === to)
    .flatMap((mail) => [...new Set(mail.text.match(/https?:\/\/\S+/g) ?? [])].map((link) => new URL(link)))
    .filter((url) => url.pathname === path);
}

/** Polls the outbox (the server writes it after answering) until the `count`-th such link is there. */
async function waitForLink(to: string, path: string, count = 1): Promise<URL> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const links = linksTo(to, path);
    if (links.length >= count) return links[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail #${count} to ${to} linking to ${path} in ${outboxDir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function accessibleAndFits(page: Page, label: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} is wider than the screen`).toBeLessThanOrEqual(0);
  const found = await seriousViolations(page);
  expect(found.map((v) => `${label}: ${v.id} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

beforeAll(async () => {
  let token: string | undefined;
  const api = apiClient(baseUrl, () => token);
  token = (
    await api.call<{ access_token: string }>('/auth/register', {
      method: 'POST',
      body: JSON.stringify({ email, password: oldPassword }),
    })
  ).access_token;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('forgot password, in the browser', () => {
  let oldSession: Page;

  it('reminds an unverified owner to verify, in Hebrew, and "resend" mails a new link', async () => {
    oldSession = await newPage();
    await signIn(oldSession, email, oldPassword);
    const notice = oldSession.getByRole('complementary', { name: he.verifyNoticeLabel });
    await notice.waitFor();
    expect(await oldSession.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await notice.textContent()).toContain(email);
    await notice.getByRole('button', { name: he.resendVerification }).click();
    await notice
      .getByText(serverText("We've sent you a new verification link. Please check your inbox.", 'he'))
      .waitFor();
    await waitForLink(email, '/verify-email', 2); // the sign-up's mail, then the resent one
    await accessibleAndFits(oldSession, '/dashboard with the verify notice');
  });

  it('asks for a reset link from /login and answers as it would for any address', async () => {
    const page = await newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    // /login is forced to English; leaving it gives back the default language, Hebrew, right to left.
    await page.getByRole('heading', { name: he.forgotTitle }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await accessibleAndFits(page, '/forgot-password');
    await page.getByLabel(he.email).fill(email);
    await page.getByRole('button', { name: he.sendResetLink }).click();
    const answer = serverText(
      "If an account exists for this email address, we've sent it a link to reset the password. Please check your inbox.",
      'he',
    );
    await page.getByRole('status').getByText(answer).waitFor();
    await page.context().close();
  });

  it('sets a new password from the mailed link, once; the old password and the old session stop working', async () => {
    const link = await waitForLink(email, '/reset-password');
    expect(link.origin).toBe(new URL(baseUrl).origin);
    const page = await newPage();
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: he.resetTitle }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByLabel(he.newPassword, { exact: true }).fill(newPassword);
    await page.getByLabel(he.confirmPassword, { exact: true }).fill(`${newPassword}x`);
    await page.getByRole('button', { name: he.savePassword }).click();
    await page.getByText(he.passwordsDiffer).waitFor();
    await page.getByLabel(he.confirmPassword, { exact: true }).fill(newPassword);
    await accessibleAndFits(page, '/reset-password');
    await page.getByRole('button', { name: he.savePassword }).click();
    await page
      .getByText(
        serverText(
          'Your password has been changed and your account was signed out everywhere. Please sign in with your new password.',
          'he',
        ),
      )
      .waitFor();

    // The same link a second time is refused, with a way to ask for a new one.
    await page.goto(link.pathname + link.search);
    await page.getByLabel(he.newPassword, { exact: true }).fill('Kesher-Third-2026!');
    await page.getByLabel(he.confirmPassword, { exact: true }).fill('Kesher-Third-2026!');
    await page.getByRole('button', { name: he.savePassword }).click();
    await page
      .getByRole('alert')
      .getByText(
        serverText(
          'This password reset link is invalid, has expired or was already used. Please ask for a new one.',
          'he',
        ),
      )
      .waitFor();
    await page.getByRole('link', { name: he.askNewLink }).waitFor();

    // The session from before the reset has ended: its next request sends it to /login.
    await oldSession.reload();
    await oldSession.waitForURL('**/login**');

    // The old password is refused; the new one signs in, and the address counts as verified now.
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(oldPassword);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('alert').getByText('Invalid email or password. Please check your credentials.').waitFor();
    await signIn(page, email, newPassword);
    const me = await page.evaluate(async () => {
      const response = await fetch('/api/v1/auth/me', {
        headers: { authorization: `Bearer ${localStorage.getItem('firebaseToken')}` },
      });
      return response.json();
    });
    expect(me).toMatchObject({ email, emailVerified: true });
    expect(await page.getByRole('complementary', { name: he.verifyNoticeLabel }).count()).toBe(0);
  });
});
