import { TEST_CARDS } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleStandIn, type GoogleStandIn } from '../../../drive/testing/google-stand-in.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';
import { waitUntil } from '../../../testing/processes.js';

/**
 * Google Drive import through the whole API on real Postgres, against a local stand-in of Google's OAuth
 * and Drive endpoints: connect (consent → callback → token in the client's return address), list,
 * import (Docs exported as text, Sheets as CSV, files downloaded), refresh, Sign Out — and what goes wrong:
 * a forged state, an expired grant, a file Google will not give, another owner's assistant, a free plan.
 */
const gate = await postgresAvailability();

describe.skipIf(!gate.available)(`Google Drive import${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let google: GoogleStandIn;
  let harness: ApiHarness;
  let owner: Awaited<ReturnType<ApiHarness['owner']>>;
  let assistantId: number;

  const post = (url: string, payload: unknown, authorization = owner.authorization) =>
    harness.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { authorization },
      payload: payload as object,
    });

  /** The paid tier Drive needs, bought the way an owner buys it on `make start`: checkout, then the test payment page's form. */
  async function upgrade(authorization: string) {
    const checkout = await post('/subscriptions/checkout', { tier: 'pro', billing_period: 'monthly' }, authorization);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const params = new URL(checkout.json<{ url: string }>().url, 'http://localhost').searchParams;
    const form = new URLSearchParams({
      ...Object.fromEntries(params),
      card_number: TEST_CARDS.success,
      card_holder: 'Dana Levi',
      expiry: '12/30',
      cvv: '123',
    });
    const paid = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/subscriptions/tranzila-mock',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(paid.json<{ status: string }>().status, paid.body).toBe('success');
  }

  /** Starting a link: the consent address, and the cookie the starting browser keeps (name=value). */
  async function start(authorization = owner.authorization, assistant = assistantId) {
    const started = await post('/google-drive/auth/url', { assistant_id: assistant }, authorization);
    expect(started.statusCode, started.body).toBe(200);
    const setCookie = String(started.headers['set-cookie']);
    return {
      authUrl: started.json<{ auth_url: string; flow: string }>().auth_url,
      flow: started.json<{ flow: string }>().flow,
      setCookie,
      cookie: setCookie.split(';')[0]!,
    };
  }

  /** Google's screen → our callback, in a browser holding `cookie` (none: another browser) → where it lands. */
  async function consentAndReturn(authUrl: string, cookie: string | null) {
    const consent = await fetch(authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const landed = await harness.app.inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: cookie ? { cookie } : {},
    });
    expect(landed.statusCode).toBe(302);
    return { back: new URL(landed.headers.location as string), setCookie: String(landed.headers['set-cookie'] ?? '') };
  }

  /** The browser's trip: our consent address → Google's screen → our callback → the client's /oauth/callback. */
  async function connect(authorization = owner.authorization, assistant = assistantId) {
    const { authUrl, cookie } = await start(authorization, assistant);
    return (await consentAndReturn(authUrl, cookie)).back;
  }

  beforeAll(async () => {
    google = await startGoogleStandIn({
      files: [
        {
          id: 'doc-hours',
          name: 'Opening hours',
          mimeType: 'application/vnd.google-apps.document',
          content: 'The bakery opens at seven in the morning, Sunday to Friday.',
        },
        {
          id: 'sheet-prices',
          name: 'Prices',
          mimeType: 'application/vnd.google-apps.spreadsheet',
          content: 'item,price\nsourdough,24\ncroissant,9\n',
        },
        {
          id: 'notes-md',
          name: 'notes.md',
          mimeType: 'text/markdown',
          content: '# Notes\nWe deliver to the harbour on Tuesdays.',
        },
        { id: 'photo', name: 'shop.png', mimeType: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
        ...Array.from({ length: 60 }, (_, i) => ({
          id: `bulk-${i}`,
          name: `Recipe ${i}.txt`,
          mimeType: 'text/plain',
          content: `Recipe number ${i}.`,
        })),
      ],
    });
    harness = await createApiHarness({
      env: {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
        GOOGLE_AUTHORIZE_URL: `${google.url}/o/oauth2/v2/auth`,
        GOOGLE_OAUTH_URL: google.url,
        GOOGLE_DRIVE_API_URL: google.url,
        PUBLIC_URL: 'http://kesher.test',
      },
    });
    owner = await harness.owner();
    const created = await post('/assistants/', {
      name: 'Bakery',
      description: 'Answers about the bakery',
      instructions: 'Answer from the files',
    });
    assistantId = created.json<{ assistant_id: number }>().assistant_id;
  });

  afterAll(async () => {
    await harness?.close();
    await google?.close();
  });

  it('keeps Drive from the free plan, naming the plan that lifts it', async () => {
    const refused = await post('/google-drive/auth/url', { assistant_id: assistantId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ detail: string }>().detail).toMatch(/Google Drive needs a paid plan/);
  });

  it('connects through the consent screen and hands the access token to the client, asking for read-only access', async () => {
    await upgrade(owner.authorization);
    const started = await post('/google-drive/auth/url', { assistant_id: assistantId });
    const authUrl = new URL(started.json<{ auth_url: string }>().auth_url);
    expect(authUrl.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/drive.readonly');
    expect(authUrl.searchParams.get('redirect_uri')).toBe('http://kesher.test/api/v1/google-drive/auth/callback');

    const back = await connect();
    expect(`${back.origin}${back.pathname}`).toBe('http://kesher.test/oauth/callback');
    expect(back.searchParams.get('google_drive_success')).toBe('true');
    expect(back.searchParams.get('assistant_id')).toBe(String(assistantId));
    expect(back.searchParams.get('open_modal')).toBe('files');
    expect(google.validAccessTokens.has(back.searchParams.get('google_drive_token')!)).toBe(true);
  });

  it("binds the link to the browser that started it: the consent link finished in another browser, or with another flow's cookie, lands no grant", async () => {
    const victim = await harness.owner();
    await upgrade(victim.authorization);
    const created = await post(
      '/assistants/',
      { name: 'Shop', description: 'd', instructions: 'i' },
      victim.authorization,
    );
    const shop = created.json<{ assistant_id: number }>().assistant_id;
    const flow = await start(victim.authorization, shop);
    // The cookie: HttpOnly, SameSite=Lax, only for the callback, no longer than the state lives.
    expect(flow.setCookie).toMatch(
      /^kesher_drive_oauth=[\w-]{40,}; Path=\/api\/v1\/google-drive\/auth\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    const tokenCalls = () => google.requests.filter((r) => r.path === '/token').length;
    const before = tokenCalls();

    // A browser with no Kesher session and no cookie (the link was sent to someone) finishes the consent.
    const stranger = await consentAndReturn(flow.authUrl, null);
    expect(`${stranger.back.origin}${stranger.back.pathname}`).toBe('http://kesher.test/oauth/callback');
    expect(stranger.back.searchParams.get('google_drive_error')).toBe(
      'This Google Drive connection was started in another browser or session, so it was not completed. Please connect Google Drive again in this browser.',
    );
    expect(stranger.back.searchParams.get('google_drive_token')).toBeNull();
    // Another browser holding the cookie of a flow it started itself: refused the same way.
    const own = await start(victim.authorization, shop);
    expect((await consentAndReturn(flow.authUrl, own.cookie)).back.searchParams.get('google_drive_error')).toMatch(
      /started in another browser/,
    );
    // Nothing was exchanged with Google, and no grant landed on the owner.
    expect(tokenCalls()).toBe(before);
    expect(
      (await harness.platform.sql.query(`SELECT 1 FROM drive_connections WHERE owner_id = $1`, [victim.accountId]))
        .rows,
    ).toHaveLength(0);
    expect((await post('/google-drive/auth/refresh', {}, victim.authorization)).statusCode).toBe(403);

    // The starting browser finishes its own flow; the return names the flow and forgets the cookie.
    const mine = await start(victim.authorization, shop);
    const done = await consentAndReturn(mine.authUrl, mine.cookie);
    expect(done.back.searchParams.get('google_drive_success')).toBe('true');
    expect(done.back.searchParams.get('flow')).toBe(mine.flow);
    expect(done.setCookie).toMatch(
      /^kesher_drive_oauth=; Path=\/api\/v1\/google-drive\/auth\/callback; Max-Age=0; HttpOnly; SameSite=Lax$/,
    );
    expect(
      (await harness.platform.sql.query(`SELECT 1 FROM drive_connections WHERE owner_id = $1`, [victim.accountId]))
        .rows,
    ).toHaveLength(1);
  });

  it("refuses a Drive import once the plan has ended, with the gate's text, and keeps nothing", async () => {
    const lapsed = await harness.owner();
    await upgrade(lapsed.authorization);
    const shop = (
      await post('/assistants/', { name: 'Kiosk', description: 'd', instructions: 'i' }, lapsed.authorization)
    ).json<{ assistant_id: number }>().assistant_id;
    const token = (await connect(lapsed.authorization, shop)).searchParams.get('google_drive_token')!;
    expect(
      (await post('/google-drive/files/list', { access_token: token, query: '' }, lapsed.authorization)).statusCode,
    ).toBe(200);
    const cancelled = await post('/subscriptions/cancel', { immediately: true }, lapsed.authorization);
    expect(cancelled.json<{ tier: string }>().tier).toBe('FREE');
    const refused = await post(
      '/google-drive/files/import',
      { assistant_id: shop, access_token: token, files: [{ id: 'notes-md' }] },
      lapsed.authorization,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Google Drive needs a paid plan. Upgrade on the pricing page to use it.',
    );
    expect(
      (
        await post(
          '/google-drive/files/import-multiple',
          { assistant_id: shop, access_token: token, file_ids: ['notes-md'] },
          lapsed.authorization,
        )
      ).statusCode,
    ).toBe(403);
    const files = await harness.app.inject({
      method: 'GET',
      url: `/api/v1/assistants/${shop}/files`,
      headers: { authorization: lapsed.authorization },
    });
    expect(files.json()).toEqual([]);
  });

  it('refuses a forged or replayed state, and says so on the client’s return page', async () => {
    const forged = await harness.app.inject({
      method: 'GET',
      url: '/api/v1/google-drive/auth/callback?code=4/whatever&state=not-ours',
    });
    expect(new URL(forged.headers.location as string).searchParams.get('google_drive_error')).toBe('invalid_state');
    const denied = await harness.app.inject({
      method: 'GET',
      url: '/api/v1/google-drive/auth/callback?error=access_denied',
    });
    expect(new URL(denied.headers.location as string).searchParams.get('google_drive_error')).toBe('access_denied');
  });

  it('lists importable files 50 a page, searched by name, and imports Docs, Sheets and files as knowledge that remembers its Drive id', async () => {
    const token = (await connect()).searchParams.get('google_drive_token')!;
    const first = await post('/google-drive/files/list', { access_token: token, query: '' });
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<{ files: { id: string }[]; next_page_token: string | null }>();
    expect(page.files).toHaveLength(50);
    expect(page.next_page_token).not.toBeNull();
    const searched = await post('/google-drive/files/list', { access_token: token, query: 'hours' });
    expect(searched.json<{ files: { id: string; name: string }[] }>().files.map((f) => f.id)).toEqual(['doc-hours']);

    const imported = await post('/google-drive/files/import', {
      assistant_id: assistantId,
      access_token: token,
      files: [{ id: 'doc-hours', name: 'ignored' }, { id: 'sheet-prices' }, { id: 'photo' }, { id: 'missing-file' }],
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const result = imported.json<{
      imported: { drive_file_id: string; file: { filename: string; source_url: string } }[];
      failed: { drive_file_id: string; error: string }[];
    }>();
    expect(result.imported.map((i) => [i.drive_file_id, i.file.filename, i.file.source_url])).toEqual([
      ['doc-hours', 'Opening hours.txt', 'https://drive.google.com/file/d/doc-hours'],
      ['sheet-prices', 'Prices.csv', 'https://drive.google.com/file/d/sheet-prices'],
    ]);
    expect(result.failed.map((f) => f.drive_file_id)).toEqual(['photo', 'missing-file']);
    expect(result.failed[0]!.error).toBe('This file type cannot be imported.');

    const more = await post('/google-drive/files/import-multiple', {
      assistant_id: assistantId,
      access_token: token,
      file_ids: ['notes-md'],
    });
    expect(more.json<{ imported: unknown[] }>().imported).toHaveLength(1);

    // The knowledge is the files' text, read by the usual extractors.
    const files = await harness.app.inject({
      method: 'GET',
      url: `/api/v1/assistants/${assistantId}/files`,
      headers: { authorization: owner.authorization },
    });
    const byName = new Map(
      files.json<{ id: string; filename: string; status: string }[]>().map((f) => [f.filename, f]),
    );
    const hours = byName.get('Opening hours.txt')!;
    await waitUntil(
      async () =>
        (
          await harness.app.inject({
            method: 'GET',
            url: `/api/v1/assistants/${assistantId}/files`,
            headers: { authorization: owner.authorization },
          })
        )
          .json<{ filename: string; status: string }[]>()
          .every((f) => f.status === 'ready'),
      { what: 'imported files read' },
    );
    const text = await harness.app.inject({
      method: 'GET',
      url: `/api/v1/openai/file/${hours.id}/content`,
      headers: { authorization: owner.authorization },
    });
    expect(text.body).toContain('opens at seven in the morning');
  });

  it('asks the owner to connect again when Google no longer accepts the token, and refreshes from the kept grant', async () => {
    const token = (await connect()).searchParams.get('google_drive_token')!;
    google.validAccessTokens.delete(token);
    const expired = await post('/google-drive/files/list', { access_token: token, query: '' });
    expect(expired.statusCode).toBe(403);
    expect(expired.json<{ detail: string }>().detail).toBe(
      'Your Google Drive session has expired. Please connect again.',
    );

    const refreshed = await post('/google-drive/auth/refresh', {});
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const fresh = refreshed.json<{ access_token: string }>().access_token;
    expect((await post('/google-drive/files/list', { access_token: fresh, query: '' })).statusCode).toBe(200);

    google.failDriveWith = 500;
    try {
      const down = await post('/google-drive/files/list', { access_token: fresh, query: '' });
      expect(down.statusCode).toBe(502);
      expect(down.json<{ detail: string }>().detail).toMatch(/^Failed to load files from Google Drive/);
    } finally {
      google.failDriveWith = null;
    }
  });

  it('signs out: Google forgets the grant and the server its refresh token', async () => {
    const token = (await connect()).searchParams.get('google_drive_token')!;
    const out = await post('/google-drive/auth/revoke', { access_token: token });
    expect(out.statusCode).toBe(200);
    expect(google.revoked).toContain(token);
    expect(google.validAccessTokens.has(token)).toBe(false);
    const refresh = await post('/google-drive/auth/refresh', {});
    expect(refresh.statusCode).toBe(403);
    expect(refresh.json<{ detail: string }>().detail).toBe('Please sign in to Google Drive first');
    const { rows } = await harness.platform.sql.query(`SELECT 1 FROM drive_connections WHERE owner_id = $1`, [
      owner.accountId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("never imports into another owner's assistant, and refuses bad requests with the spec's texts", async () => {
    const other = await harness.owner();
    await upgrade(other.authorization);
    const token = (await connect()).searchParams.get('google_drive_token')!;
    const foreign = await post(
      '/google-drive/files/import',
      { assistant_id: assistantId, access_token: token, files: [{ id: 'notes-md' }] },
      other.authorization,
    );
    expect(foreign.statusCode).toBe(404);
    const foreignConnect = await post('/google-drive/auth/url', { assistant_id: assistantId }, other.authorization);
    expect(foreignConnect.statusCode).toBe(404);

    const none = await post('/google-drive/files/import', {
      assistant_id: assistantId,
      access_token: token,
      files: [],
    });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('Please select files to import');
    const noToken = await post('/google-drive/files/list', { access_token: '', query: '' });
    expect(noToken.statusCode).toBe(422);
    expect(noToken.body).toContain('Please sign in to Google Drive first');
    const badId = await post('/google-drive/files/import-multiple', {
      assistant_id: assistantId,
      access_token: token,
      file_ids: ['../../etc/passwd'],
    });
    expect(badId.statusCode).toBe(422);
  });
});
