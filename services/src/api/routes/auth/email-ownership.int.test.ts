import { accountMessages } from '@kesher/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { startGoogleStandIn } from '../../../testing/google-stand-in.js';
import { linkIn, startSmtpStandIn, type SmtpStandIn } from '../../../testing/smtp-stand-in.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

const PUBLIC_URL = 'http://kesher.test';
const AUDIENCE = 'kesher-test.apps.googleusercontent.com';
const PASSWORD = 'Str0ng-Passw0rd!';
const NEW_PASSWORD = 'N3w-Str0nger-Passw0rd!';

/**
 * E-mail ownership against the whole backend on real Postgres, its mail going over SMTP to a real local
 * SMTP server and read back from there, Google ID tokens signed by a local Google stand-in. The clock is
 * the server's own (links expire by it): tests move it forward instead of waiting.
 */
describe.skipIf(!gate.available)(`e-mail ownership${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let smtp: SmtpStandIn;
  let google: Awaited<ReturnType<typeof startGoogleStandIn>>;
  let base: string;
  let offsetMs = 0;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    google = await startGoogleStandIn();
    h = await createApiHarness({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Kesher <no-reply@kesher.test>',
        PUBLIC_URL,
        GOOGLE_CLIENT_ID: AUDIENCE,
        GOOGLE_JWKS_URL: google.jwksUrl,
      },
      clock: () => new Date(Date.now() + offsetMs),
    });
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await google?.close();
  });

  /**
   * A request as a browser (or an attacker's script) makes it: over HTTP to the listening server. Each
   * test speaks from its own address (injected with it), as the auth routes allow 30 requests a minute
   * per address and the file makes more; the attack test goes over the real socket.
   */
  let from = '10.0.0.1';
  let overHttp = false;
  async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const headers = {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    };
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    if (overHttp) {
      const response = await fetch(`${base}/api/v1${path}`, { method, headers, body: payload });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
    }
    const response = await h.app.inject({
      method: method as 'GET' | 'POST',
      url: `/api/v1${path}`,
      headers,
      payload,
      remoteAddress: from,
    });
    return { status: response.statusCode, body: (response.body ? response.json() : null) as any };
  }
  let tests = 0;
  beforeEach(() => {
    from = `10.0.${++tests}.1`;
    overHttp = false;
  });
  const register = (email: string, password = PASSWORD) => call('/auth/register', { body: { email, password } });
  const login = (email: string, password: string) => call('/auth/login', { body: { email, password } });
  const me = (token: string) => call('/auth/me', { token });
  const tokenOf = (link: URL) => link.searchParams.get('token')!;

  it('mails a verification link over SMTP on sign-up; it verifies the address once', async () => {
    const email = 'alice@example.com';
    const session = (await register(email)).body;
    expect(session.user.emailVerified).toBe(false);

    const mail = await smtp.waitForMail(email);
    expect(mail.from).toContain('no-reply@kesher.test');
    expect(mail.subject).toMatch(/Verify your email/);
    const link = linkIn(mail, `${PUBLIC_URL}/verify-email?token=`);
    expect(mail.html).toContain(`href="${link.href}"`);

    const verified = await call('/auth/verify-email', { body: { token: tokenOf(link) } });
    expect(verified).toEqual({ status: 200, body: { detail: accountMessages.emailVerified } });
    expect((await me(session.access_token)).body.emailVerified).toBe(true);

    const again = await call('/auth/verify-email', { body: { token: tokenOf(link) } });
    expect(again).toMatchObject({ status: 422, body: { detail: accountMessages.verifyLinkInvalid } });
    // Resending to a verified address sends nothing.
    expect(await call('/auth/verify-email/resend', { method: 'POST', token: session.access_token })).toEqual({
      status: 200,
      body: { detail: accountMessages.alreadyVerified },
    });
  });

  it('refuses an expired verification link; "resend" mails a new one that works', async () => {
    const email = 'bob@example.com';
    const session = (await register(email)).body;
    const first = linkIn(await smtp.waitForMail(email, 1), `${PUBLIC_URL}/verify-email`);
    offsetMs += (3 * 24 * 3600 + 60) * 1000; // past EMAIL_VERIFY_TTL_SECONDS (3 days)
    expect(await call('/auth/verify-email', { body: { token: tokenOf(first) } })).toMatchObject({
      status: 422,
      body: { detail: accountMessages.verifyLinkInvalid },
    });
    expect((await me(session.access_token)).body.emailVerified).toBe(false);

    const resent = await call('/auth/verify-email/resend', { method: 'POST', token: session.access_token });
    expect(resent).toEqual({ status: 202, body: { detail: accountMessages.verificationSent } });
    const second = linkIn(await smtp.waitForMail(email, 2), `${PUBLIC_URL}/verify-email`);
    expect((await call('/auth/verify-email', { body: { token: tokenOf(second) } })).status).toBe(200);
    expect((await me(session.access_token)).body.emailVerified).toBe(true);
    // A token that was never issued, and one that is not a token at all.
    expect((await call('/auth/verify-email', { body: { token: 'A'.repeat(43) } })).status).toBe(422);
    const junk = await call('/auth/verify-email', { body: { token: '../../etc/passwd' } });
    expect(junk.status).toBe(422);
    expect(junk.body.detail[0].msg).toBe(accountMessages.linkMalformed);
  });

  it('resets a password by e-mail: the new one works, the old one and every session do not, the link works once', async () => {
    const email = 'carol@example.com';
    const registered = (await register(email)).body.access_token as string;
    const signedIn = (await login(email, PASSWORD)).body.access_token as string;
    expect((await me(signedIn)).status).toBe(200);

    const asked = await call('/auth/forgot-password', { body: { email: 'Carol@Example.com' } });
    expect(asked).toEqual({ status: 202, body: { detail: accountMessages.resetRequested } });
    const mail = await smtp.waitForMail(email, 2); // the first is the verification mail
    expect(mail.subject).toMatch(/Reset your Kesher password/);
    const link = linkIn(mail, `${PUBLIC_URL}/reset-password?token=`);

    // The new password meets the register page's rules.
    const weak = await call('/auth/reset-password', { body: { token: tokenOf(link), password: 'short' } });
    expect(weak.status).toBe(422);
    expect(weak.body.detail[0].msg).toBe('Password must be at least 10 characters long');

    expect(await call('/auth/reset-password', { body: { token: tokenOf(link), password: NEW_PASSWORD } })).toEqual({
      status: 200,
      body: { detail: accountMessages.passwordReset },
    });
    expect((await login(email, PASSWORD)).status).toBe(401);
    const fresh = await login(email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    // Every session from before the reset has ended; the one after it works.
    expect((await me(registered)).status).toBe(401);
    expect((await me(signedIn)).status).toBe(401);
    expect((await me(fresh.body.access_token)).body).toMatchObject({ email, emailVerified: true });

    const reused = await call('/auth/reset-password', {
      body: { token: tokenOf(link), password: 'An0ther-Passw0rd!' },
    });
    expect(reused).toMatchObject({ status: 422, body: { detail: accountMessages.resetLinkInvalid } });
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired reset link and leaves the password as it was', async () => {
    const email = 'dave@example.com';
    await register(email);
    await call('/auth/forgot-password', { body: { email } });
    const link = linkIn(await smtp.waitForMail(email, 2), `${PUBLIC_URL}/reset-password`);
    offsetMs += 3601 * 1000; // past PASSWORD_RESET_TTL_SECONDS (1 hour)
    expect(
      await call('/auth/reset-password', { body: { token: tokenOf(link), password: NEW_PASSWORD } }),
    ).toMatchObject({ status: 422, body: { detail: accountMessages.resetLinkInvalid } });
    expect((await login(email, PASSWORD)).status).toBe(200);
    expect((await login(email, NEW_PASSWORD)).status).toBe(401);
  });

  it('answers "forgot password" for an unknown address exactly as for a known one, and limits how often one address asks', async () => {
    const email = 'erin@example.com';
    await register(email);
    const ask = (address: string, remoteAddress: string) =>
      h.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: address }, remoteAddress });
    const known = await ask(email, '10.9.0.1');
    const unknown = await ask('nobody-here@example.com', '10.9.0.1');
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(unknown.body).toBe(known.body);
    await smtp.waitForMail(email, 2);
    expect(smtp.mailsTo('nobody-here@example.com')).toEqual([]);

    const more = [];
    for (let i = 0; i < 4; i++) more.push((await ask(`someone-${i}@example.com`, '10.9.0.1')).statusCode);
    expect(more).toEqual([202, 202, 202, 429]);
    // Another address is not held back by the first one's asking.
    expect((await ask('nobody-here@example.com', '10.9.0.2')).statusCode).toBe(202);
  });

  it("the squatter's attack fails: a Google sign-in never lands in an unverified account, and the squatter is locked out of it", async () => {
    overHttp = true;
    const victim = 'victim@example.com';
    // The attacker registers the victim's address with a password, prepares the account, and keeps sessions.
    const squat = await register(victim, 'Att4cker-Passw0rd!');
    expect(squat.status).toBe(201);
    const attackerSession = squat.body.access_token as string;
    const attackerId = squat.body.user.uid as string;
    const bait = await call('/assistants/', {
      token: attackerSession,
      body: { name: 'Bait', description: 'Planted by the attacker', instructions: 'Collect what you are told' },
    });
    expect(bait.status).toBe(201);
    const attackerLater = (await login(victim, 'Att4cker-Passw0rd!')).body.access_token as string;

    // The real owner signs in with Google (Google verified the address).
    const idToken = await google.idToken(
      { sub: 'google-victim', email: victim, name: 'Victim' },
      { audience: AUDIENCE },
    );
    const signIn = await call('/auth/google', { body: { id_token: idToken } });
    expect(signIn.status).toBe(200);
    const owner = signIn.body;
    expect(owner.user.uid).not.toBe(attackerId);
    expect(owner.user).toMatchObject({ email: victim, providerId: 'google.com', emailVerified: true });
    expect((await call('/assistants/', { token: owner.access_token })).body).toEqual([]);

    // The attacker's password and sessions no longer open anything.
    expect((await login(victim, 'Att4cker-Passw0rd!')).status).toBe(401);
    expect((await me(attackerSession)).status).toBe(401);
    expect((await me(attackerLater)).status).toBe(401);
    expect((await call('/assistants/', { token: attackerSession })).status).toBe(401);
    // Nor can they get the address back: it is taken, and "forgot password" mails the owner.
    expect((await register(victim, 'Att4cker-Passw0rd!')).status).toBe(409);

    // The owner keeps signing into the same (new) account.
    const again = await call('/auth/google', { body: { id_token: idToken } });
    expect(again.body.user.uid).toBe(owner.user.uid);
    expect((await me(owner.access_token)).status).toBe(200);
  });

  it('joins Google sign-in to a password account whose address was verified', async () => {
    const email = 'frank@example.com';
    const registered = (await register(email)).body;
    const link = linkIn(await smtp.waitForMail(email), `${PUBLIC_URL}/verify-email`);
    expect((await call('/auth/verify-email', { body: { token: tokenOf(link) } })).status).toBe(200);
    const idToken = await google.idToken({ sub: 'google-frank', email, name: 'Frank' }, { audience: AUDIENCE });
    const signIn = await call('/auth/google', { body: { id_token: idToken } });
    expect(signIn.body.user.uid).toBe(registered.user.uid);
    expect((await login(email, PASSWORD)).status).toBe(200);
    expect((await me(registered.access_token)).status).toBe(200);
  });
});
