import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAssistant } from '../../../testing/owner-assistant.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(`Download my data${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness();
  });
  afterAll(async () => h?.close());

  /** An owner with an assistant, one conversation of their own and one a visitor had through the share link. */
  async function ownerWithConversations(name: string, ownText: string, visitorText: string) {
    const { owner, auth, assistant } = await ownerAssistant(h, {
      name,
      description: `${name} answers`,
      instructions: 'Answer briefly',
    });
    const share = (
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${assistant.assistant_id}/generate-share-token`,
        headers: auth,
      })
    ).json();
    const thread = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: auth,
        payload: { assistant_id: assistant.assistant_id },
      })
    ).json().thread_id as string;
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${thread}/messages`,
          headers: auth,
          payload: { content: ownText },
        })
      ).statusCode,
    ).toBe(201);
    const session = `${name}-visitor-session-token-0123456789`;
    const visitor = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/public',
        payload: { assistant_id: assistant.assistant_id, share_token: share.share_token, session_token: session },
      })
    ).json().thread_id as string;
    const posted = await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/public/${visitor}/messages`,
      payload: { content: visitorText, session_token: session },
    });
    expect(posted.statusCode).toBe(201);
    return { owner, auth, assistant, thread, visitor };
  }

  async function exported(auth: Record<string, string>) {
    const response = await h.app.inject({ url: '/api/v1/auth/me/export', headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="kesher-my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(response.rawPayload));
    return Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, strFromU8(bytes)]));
  }

  it("answers a zip of the owner's account, assistants, conversations with their channel, analytics and payments — and nothing of another owner's", async () => {
    const dana = await ownerWithConversations(
      'Bakery',
      'When do you bake sourdough?',
      '=HYPERLINK("http://evil.example","click") do you open on Friday?',
    );
    const omer = await ownerWithConversations(
      'Garage',
      'Omer secret question about brakes',
      'Omer visitor asks about tyres',
    );

    // The read models take a moment to show what was just recorded: wait until both conversations are there.
    await expect
      .poll(
        async () =>
          JSON.parse((await exported(dana.auth))['conversations.json']!).filter(
            (c: { messages: unknown[] }) => c.messages.length > 0,
          ).length,
        { timeout: 15_000, interval: 100 },
      )
      .toBe(2);
    const files = await exported(dana.auth);

    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'account.json',
        'analytics/daily-activity.csv',
        'analytics/totals.json',
        'assistants.json',
        'channels.json',
        'conversations.csv',
        'conversations.json',
        'files.csv',
        'payments/payments.csv',
        'payments/subscription.json',
      ].sort(),
    );
    expect(JSON.parse(files['account.json']!)).toMatchObject({
      id: dana.owner.accountId,
      email: dana.owner.email.toLowerCase(),
    });
    expect(Object.keys(JSON.parse(files['account.json']!))).not.toContain('password_hash');
    expect(JSON.parse(files['assistants.json']!)).toEqual([
      expect.objectContaining({ assistant_id: dana.assistant.assistant_id, name: 'Bakery', shared: true }),
    ]);

    const conversations = JSON.parse(files['conversations.json']!) as {
      thread_id: string;
      channel: string;
      messages: { role: string; text: string }[];
    }[];
    expect(conversations.map((c) => [c.thread_id, c.channel]).sort()).toEqual(
      [
        [dana.thread, 'app'],
        [dana.visitor, 'public_link'],
      ].sort(),
    );
    expect(conversations.find((c) => c.thread_id === dana.thread)!.messages).toEqual([
      expect.objectContaining({ role: 'user', text: 'When do you bake sourdough?' }),
    ]);
    // The CSV is safe to open in a spreadsheet: the visitor's "formula" is text, not a formula.
    expect(files['conversations.csv']).toContain(
      `"'=HYPERLINK(""http://evil.example"",""click"") do you open on Friday?"`,
    );
    expect(files['conversations.csv']!.split('\n')[0]).toBe('thread_id,role,text,language,created_at,channel');

    // Owner isolation: nothing of Omer's, anywhere in Dana's archive.
    const everything = Object.values(files).join('\n');
    for (const theirs of [
      'Garage',
      'Omer secret question',
      'Omer visitor asks',
      omer.owner.email,
      omer.owner.accountId,
      omer.thread,
      omer.visitor,
    ]) {
      expect(everything).not.toContain(theirs);
    }

    // And the export is in Dana's security log (not in Omer's).
    const log = (await h.app.inject({ url: '/api/v1/auth/me/security-log', headers: dana.auth })).json();
    expect(log.entries[0]).toMatchObject({ kind: 'data_exported', actor: `account:${dana.owner.accountId}` });
    expect((await h.app.inject({ url: '/api/v1/auth/me/security-log', headers: omer.auth })).json().entries).toEqual(
      [],
    );
  });

  it('asks for a signed-in owner', async () => {
    const response = await h.app.inject({ url: '/api/v1/auth/me/export' });
    expect(response.statusCode).toBe(401);
    expect((await h.app.inject({ url: '/api/v1/auth/me/security-log' })).statusCode).toBe(401);
  });

  it('tells anyone the retention periods, and the owner when each conversation is erased', async () => {
    expect((await h.app.inject({ url: '/api/v1/privacy/retention' })).json()).toEqual({
      conversation_days: 90,
      analytics_months: 24,
      security_log_months: 12,
      payment_years: 7,
      inactive_account_months: 24,
    });
    const dana = await ownerWithConversations('Florist', 'Do you deliver roses?', 'Tulips today?');
    await expect
      .poll(
        async () =>
          (
            await h.app.inject({
              url: `/api/v1/assistants/${dana.assistant.assistant_id}/threads/kept-until`,
              headers: dana.auth,
            })
          ).json().threads.length,
        { timeout: 15_000, interval: 100 },
      )
      .toBe(2);
    const kept = (
      await h.app.inject({
        url: `/api/v1/assistants/${dana.assistant.assistant_id}/threads/kept-until`,
        headers: dana.auth,
      })
    ).json();
    for (const thread of kept.threads)
      expect(Date.parse(thread.kept_until) - Date.parse(thread.last_message_at)).toBe(90 * 24 * 3600 * 1000);
    // Another owner's assistant is not found.
    const other = await h.owner();
    expect(
      (
        await h.app.inject({
          url: `/api/v1/assistants/${dana.assistant.assistant_id}/threads/kept-until`,
          headers: { authorization: other.authorization },
        })
      ).statusCode,
    ).toBe(404);
  });
});
